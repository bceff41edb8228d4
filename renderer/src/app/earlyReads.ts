import type { EarlyRead } from '../desk/earlyReads.ts';
import { matrixEarlyReads } from '../features/balances/firstReads.ts';
import { overviewEarlyReads } from '../features/overview/firstReads.ts';

// The reads of the page a start opens on, sent by whichever of the window's two entries runs first
// (opening.ts, main.tsx). Schema-free and React-free, as everything the first script imports.

export const openingEarlyReads = (hash: string): EarlyRead[] => [...overviewEarlyReads(hash), ...matrixEarlyReads(hash)];
