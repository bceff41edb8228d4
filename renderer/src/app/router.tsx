import type { ComponentType } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { keyedPage, KEYED_PAGES } from './KeyedPage.tsx';
import type { PagePath } from './paths.ts';
import { DEFAULT_PAGE, PAGES } from './routes.ts';
import { Shell } from './Shell.tsx';
import { loadPage } from './loadPage.ts';

const subAccountsRoute = () => import('../features/balances/SubAccountsRoute.tsx');

/** Pages whose own code checks nothing with zod (loadPage.ts); e2e/overview.e2e.ts, e2e/balances.e2e.ts and e2e/history.e2e.ts hold them to it. */
const ZOD_FREE = new Set<string>(['overview', 'sub-accounts', 'withdrawals']);

/**
 * Hash history: both hosts serve only the build folder's files (app://desk/index.html in Electron), so the route lives in the fragment and a reload still asks for index.html.
 * `loaded`: pages whose code is already here (the page a start opens on, main.tsx), drawn in the router's
 * first render rather than after a lazy load and a second one.
 */
export function pageRoutes(loaded: Partial<Record<PagePath, ComponentType>> = {}): RouteObject[] {
  return [
    {
      path: '/',
      element: <Shell />,
      children: [
        { index: true, element: <Navigate to={`/${DEFAULT_PAGE}`} replace /> },
        ...PAGES.map((p): RouteObject => {
          const ready = loaded[p.path];
          if (ready) return { path: p.path, Component: KEYED_PAGES.has(p.path) ? keyedPage(ready, p.title) : ready };
          return {
            path: p.path,
            lazy: async () => {
              const { Component } = await loadPage(p.load, !ZOD_FREE.has(p.path));
              return { Component: KEYED_PAGES.has(p.path) ? keyedPage(Component, p.title) : Component };
            },
          };
        }),
        // One sub-account, under its page in the sidebar (the link stays current).
        {
          path: 'sub-accounts/:uid',
          lazy: async () => ({ Component: keyedPage((await loadPage(subAccountsRoute, false)).Component, 'Sub-accounts') }),
        },
        // The incident page of one sub-account (docs/sub-accounts.md).
        {
          path: 'sub-accounts/:uid/incident',
          lazy: async () => ({ Component: keyedPage((await loadPage(subAccountsRoute, false)).Component, 'Sub-accounts') }),
        },
        { path: '*', element: <Navigate to={`/${DEFAULT_PAGE}`} replace /> },
      ],
    },
  ];
}

export const createDeskRouter = (loaded: Partial<Record<PagePath, ComponentType>> = {}) => createHashRouter(pageRoutes(loaded));
