import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { DEFAULT_PAGE, PAGES } from './routes.ts';
import { Shell } from './Shell.tsx';

/** Hash history: the renderer is served from file:// in Electron, where only the fragment can carry the route. */
export function pageRoutes(): RouteObject[] {
  return [{
    path: '/',
    element: <Shell />,
    children: [
      { index: true, element: <Navigate to={`/${DEFAULT_PAGE}`} replace /> },
      ...PAGES.map((p): RouteObject => ({ path: p.path, lazy: async () => ({ Component: (await p.load()).default }) })),
      { path: '*', element: <Navigate to={`/${DEFAULT_PAGE}`} replace /> },
    ],
  }];
}

export const createDeskRouter = () => createHashRouter(pageRoutes());
