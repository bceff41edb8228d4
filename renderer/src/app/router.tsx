import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { keyedPage, KEYED_PAGES } from './KeyedPage.tsx';
import { DEFAULT_PAGE, PAGES } from './routes.ts';
import { Shell } from './Shell.tsx';

/** Hash history: both hosts serve only the build folder's files (app://desk/index.html in Electron), so the route lives in the fragment and a reload still asks for index.html. */
export function pageRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      element: <Shell />,
      children: [
        { index: true, element: <Navigate to={`/${DEFAULT_PAGE}`} replace /> },
        ...PAGES.map((p): RouteObject => ({
          path: p.path,
          lazy: async () => {
            const Page = (await p.load()).default;
            return { Component: KEYED_PAGES.has(p.path) ? keyedPage(Page, p.title) : Page };
          },
        })),
        // One sub-account, under its page in the sidebar (the link stays current).
        {
          path: 'sub-accounts/:uid',
          lazy: async () => ({ Component: keyedPage((await import('../features/balances/SubAccountsRoute.tsx')).default, 'Sub-accounts') }),
        },
        // The incident page of one sub-account (issue 28).
        {
          path: 'sub-accounts/:uid/incident',
          lazy: async () => ({ Component: keyedPage((await import('../features/balances/SubAccountsRoute.tsx')).default, 'Sub-accounts') }),
        },
        { path: '*', element: <Navigate to={`/${DEFAULT_PAGE}`} replace /> },
      ],
    },
  ];
}

export const createDeskRouter = () => createHashRouter(pageRoutes());
