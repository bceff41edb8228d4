import type { Desk } from '../../desk/DeskProvider.tsx';

/** The core writes the export; the page hands it to the save dialog as a download. */
export async function downloadJournal(desk: Desk, format: 'csv' | 'bundle'): Promise<{ filename: string; entries: number }> {
  const { text, filename, entries } = await desk.call('journalExport', { format });
  const url = URL.createObjectURL(new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { filename, entries };
}
