import type { IntentState } from './channels/writes.ts';

// Apart from shared/channels/writes.ts (its schemas): the window's event handling reads it from its start.

/** States after which nothing more happens to a write. */
export const FINISHED_INTENT_STATES: ReadonlySet<IntentState> = new Set(['done', 'refused', 'settled', 'cancelled']);
