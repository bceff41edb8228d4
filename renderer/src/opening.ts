import { openingEarlyReads } from './app/earlyReads.ts';
import { askEarly } from './desk/earlyReads.ts';

// The window's first script (its own entry, named in index.html before the app's: vite.config.ts): sends
// the reads of the first paint before React and the app's code are evaluated (issue 25).
askEarly(openingEarlyReads);
