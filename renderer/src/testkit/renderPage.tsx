import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { useAppliedTheme } from '../app/theme.ts';
import { useDeskEventsIntoCache } from '../desk/hooks.ts';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { createDesk, DeskProvider, type Desk } from '../desk/DeskProvider.tsx';
import type { FakeDesk } from './fakeDesk.ts';

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, gcTime: Infinity } } });
}

/** What the shell does for every page: events into the cache, the theme onto the window. */
function ShellWiring({ children }: { children: ReactNode }) {
  useDeskEventsIntoCache();
  useAppliedTheme();
  return children;
}

/** Renders one page (or any element) at an address, with a fake desk behind it, as the app would. */
export function renderWithDesk(fake: FakeDesk, element: ReactElement, opts: { path?: string; at?: string } = {}) {
  const desk: Desk = createDesk(fake.api);
  const queryClient = testQueryClient();
  const router = createMemoryRouter([{ path: opts.path ?? '/*', element: <ShellWiring>{element}</ShellWiring> }], {
    initialEntries: [opts.at ?? '/'],
  });
  const view = render(
    <DeskProvider desk={desk}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </DeskProvider>,
  );
  return { ...view, desk, queryClient, router };
}

/** The app's providers around `routes` at the address `at`, over a given desk and query cache, rendered in one act (as main.tsx's first render). */
export function renderRoutes(routes: RouteObject[], at: string, desk: Desk, queryClient: QueryClient) {
  const router = createMemoryRouter(routes, { initialEntries: [at] });
  act(() => {
    render(
      <DeskProvider desk={desk}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </DeskProvider>,
    );
  });
  return router;
}
