import type { HistoryKind, HistoryQuery } from '../../../../shared/history.ts';
import { call } from '../../desk/desk.ts';

/**
 * The core writes the whole filtered list as CSV text; the page hands it to the browser's (or
 * Electron's) save dialog as a download, so the operator picks where it goes.
 */
export async function downloadCsv(kind: HistoryKind, query: HistoryQuery): Promise<number> {
  const { csv, filename, rows } = await call('historyExport', { kind, query });
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return rows;
}
