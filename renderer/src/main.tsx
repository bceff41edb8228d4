import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createDeskRouter } from './app/router.tsx';
import { createDesk, DeskProvider } from './desk/DeskProvider.tsx';
import { createWebDesk } from './desk/webDesk.ts';
import { askFirstBlock } from './features/balances/matrixQuery.ts';
import { prefetchOverview } from './features/overview/prefetch.ts';
import { expectOpeningFigures } from './app/openingReads.ts';
import './styles.css';

// Retries of exchange reads belong to the core's scheduler, which knows the rate limits; the
// renderer does not add its own on top.
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
// Electron's preload gives window.desk; in a browser the web desk takes the token from the address
// before the router reads the fragment.
const desk = createDesk(window.desk ?? createWebDesk());
const router = createDeskRouter();
// A window that opens on the matrix asks for it now, while React draws the shell: on a new start the core
// answers at once from its cache, and nothing waits for the page's code to mount first (issue 25).
const opening =
  prefetchOverview(queryClient, desk, window.location.hash) ??
  (/^#\/?sub-accounts$/.test(window.location.hash) ? askFirstBlock(queryClient, desk) : null);
if (opening) expectOpeningFigures();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <DeskProvider desk={desk}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </DeskProvider>
  </StrictMode>,
);
