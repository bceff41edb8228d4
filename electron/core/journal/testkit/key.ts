import type { JournalKey } from '../mac.ts';

/** A fixed journal key for tests that are not about keys. */
export const TEST_KEY_BYTES = Buffer.alloc(32, 7);
export const testJournalKey: JournalKey = () => TEST_KEY_BYTES;
