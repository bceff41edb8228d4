import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { DEFAULT_PAGE, PAGES } from './routes.ts';
import { Shell } from './Shell.tsx';
import { loadPage } from './loadPage.ts';

const subAccountsRoute = () => import('../features/balances/SubAccountsRoute.tsx');

/** Pages whose own code checks nothing with zod (loadPage.ts); e2e/overview.e2e.ts and e2e/balances.e2e.ts hold them to it. */
const ZOD_FREE = new Set<string>(['overview', 'sub-accounts']);

/** Hash history: both hosts serve only the build folder's files (app://desk/index.html in Electron), so the route lives in the fragment and a reload still asks for index.html. */
export function pageRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      element: <Shell />,
      children: [
        { index: true, element: <Navigate to={`/${DEFAULT_PAGE}`} replace /> },
        ...PAGES.map((p): RouteObject => ({ path: p.path, lazy: () => loadPage(p.load, !ZOD_FREE.has(p.path)) })),
        // One sub-account, under its page in the sidebar (the link stays current).
        {
          path: 'sub-accounts/:uid',
          lazy: () => loadPage(subAccountsRoute, false),
        },
        // The incident page of one sub-account (issue 28).
        {
          path: 'sub-accounts/:uid/incident',
          lazy: () => loadPage(subAccountsRoute, false),
        },
        { path: '*', element: <Navigate to={`/${DEFAULT_PAGE}`} replace /> },
      ],
    },
  ];
}

export const createDeskRouter = () => createHashRouter(pageRoutes());
