import { fileJournalKey, type JournalKey } from '../../journal/mac.ts';

/** The batch runner's journal key: a file beside the journal, so the test and the child process share it. */
export function journalKeyOf(journalPath: string): JournalKey {
  return fileJournalKey(`${journalPath}.key`);
}
