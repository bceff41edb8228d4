import { statusEntry, type StatusKind } from '../../../../shared/api/statusWords.ts';

/** Every status with its meaning in words and a tone; an unknown one is shown as it came. */
export function StatusBadge({ status, kind }: { status: string; kind: StatusKind }) {
  const e = statusEntry(kind, status);
  return (
    <span className={`status-badge status-${e.tone}`} data-status={status} data-tone={e.tone} title={`${status} · ${e.words}`}>
      <span className="status-code">{status}</span>
      <span className="status-meaning"> · {e.words}</span>
    </span>
  );
}
