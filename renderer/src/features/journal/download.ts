import { saveText } from '../../components/saveText.ts';
import type { AuditFilters } from '../../../../shared/journal.ts';
import type { Desk } from '../../desk/DeskProvider.tsx';

/**
 * The core writes the export; the page hands it to the save dialog as a download. The CSV holds what the
 * filters on screen show; the signed bundle is always whole (a verifier needs every entry).
 */
export async function downloadJournal(
  desk: Desk,
  format: 'csv' | 'bundle',
  filters: AuditFilters,
): Promise<{ filename: string; entries: number }> {
  const { text, filename, entries } = await desk.call('journalExport', format === 'csv' ? { format, ...filters } : { format });
  saveText(text, filename, format === 'csv' ? 'text/csv' : 'application/json');
  return { filename, entries };
}
