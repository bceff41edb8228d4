import { openingEarlyReads } from './app/earlyReads.ts';
import { askEarly } from './desk/earlyReads.ts';
import { opensOnMatrix } from './features/balances/firstReads.ts';

// The window's first script (its own entry, named in index.html before the app's: vite.config.ts): sends
// the reads of the first paint before React and the app's code are evaluated (docs/performance.md §Opening the desk).
askEarly(openingEarlyReads);
// A start on the matrix fetches the page's code beside those reads; the Overview's is named in index.html.
// main.tsx waits for the same module, so that React's first render draws the matrix, not the shell alone.
if (opensOnMatrix(window.location.hash)) void import('./features/balances/SubAccountsRoute.tsx');
