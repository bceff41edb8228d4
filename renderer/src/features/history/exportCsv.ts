import type { HistoryKind, HistoryQuery } from '../../../../shared/history.ts';
import { saveText } from '../../components/saveText.ts';
import type { Desk } from '../../desk/DeskProvider.tsx';

/** The core writes the whole filtered list as CSV text; the page saves it as a download. */
export async function downloadCsv(desk: Desk, kind: HistoryKind, query: HistoryQuery): Promise<number> {
  const { csv, filename, rows } = await desk.call('historyExport', { kind, query });
  saveText(csv, filename, 'text/csv');
  return rows;
}
