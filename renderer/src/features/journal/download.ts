import { saveText } from '../../components/saveText.ts';
import type { Desk } from '../../desk/DeskProvider.tsx';

/** The core writes the export; the page hands it to the save dialog as a download. */
export async function downloadJournal(desk: Desk, format: 'csv' | 'bundle'): Promise<{ filename: string; entries: number }> {
  const { text, filename, entries } = await desk.call('journalExport', { format });
  saveText(text, filename, format === 'csv' ? 'text/csv' : 'application/json');
  return { filename, entries };
}
