import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createDeskRouter } from './app/router.tsx';
import { createDesk, DeskProvider } from './desk/DeskProvider.tsx';
import { askEarly, deskApi, takeEarly } from './desk/earlyReads.ts';
import { openEventsAfter } from './desk/webDesk.ts';
import { askFirstBlock } from './features/balances/matrixQuery.ts';
import { overviewCurrency } from './features/overview/firstReads.ts';
import { opensOnMatrix } from './features/balances/firstReads.ts';
import { openingEarlyReads } from './app/earlyReads.ts';
import { prefetchOverview } from './features/overview/prefetch.ts';
import { expectOpeningFigures, leavingEndsOpening, openingFigures } from './app/openingReads.ts';
import { openingPage } from './app/openingPage.ts';
import './styles.css';

/** The longest the window's event stream waits for the opening page's figures (webDesk.ts openEventsAfter). */
const EVENTS_AT_THE_LATEST_MS = 2_000;
// Retries of exchange reads belong to the core's scheduler, which knows the rate limits; the
// renderer does not add its own on top.
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
// The window's first script (opening.ts) has sent the first paint's reads; when it has not run yet, they
// are sent here. Either way the calls below take their answers.
askEarly(openingEarlyReads);
const desk = createDesk(deskApi(), Date.now, takeEarly);
// A window that opens on the matrix asks for it now, while the page's code loads: on a new start the core
// answers at once from its cache, and nothing waits for the page to mount first (docs/performance.md §Opening the desk).
const onOverview = overviewCurrency(window.location.hash) !== null;
const opening =
  prefetchOverview(queryClient, desk, window.location.hash) ??
  (opensOnMatrix(window.location.hash) ? askFirstBlock(queryClient, desk) : null);
if (opening) expectOpeningFigures();
// The desk's event stream opens once those figures are shown, at the latest after EVENTS_AT_THE_LATEST_MS.
openEventsAfter(Promise.race([openingFigures(), new Promise<void>((r) => setTimeout(r, EVENTS_AT_THE_LATEST_MS))]));
// The core's background work (the journal's reconciliation, the history's first sync, the exchange's load
// of a kept matrix) waits for this, at most a second (electron/core/startUp.ts): its answers are checked in
// the core's process, which on two cores took the processor from the first paint (docs/performance.md §Opening the desk).
void openingFigures().then(() => desk.call('windowPainted', {}).catch(() => {}));

async function draw(): Promise<void> {
  // A start on the Overview or the matrix draws that page in React's first render, with its figures already
  // asked, and the address names the page itself, not the index route that would redirect to it and render
  // again. In a CPU profile the shell was rendered alone, then the page's code evaluated and the whole
  // rendered once more (docs/performance.md §Opening the desk).
  const loaded = await openingPage(window.location.hash);
  if (onOverview && /^#?\/?$/.test(window.location.hash)) history.replaceState(null, '', '#/overview');
  const router = createDeskRouter(loaded);
  leavingEndsOpening(router);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <DeskProvider desk={desk}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </DeskProvider>
    </StrictMode>,
  );
}
void draw();
