import { useEffect } from 'react';
import type { AuditCursor, AuditEntry, AuditQuery } from '../../../../shared/journal.ts';
import { ENTRY_TYPE_NAMES } from '../../../../shared/journal.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { dateTime } from '../../components/localTime.ts';

export type Filters = Omit<AuditQuery, 'after' | 'limit'>;

export const PAGE_SIZE = 100;

function Row({ e, onFollow }: { e: AuditEntry; onFollow: (intent: string) => void }) {
  return (
    <tr data-entry={`${e.journal}:${e.seq}`}>
      <td className="small">{dateTime(e.at)}</td>
      <td className="small">
        {e.journal === 'governance' ? 'Approvals' : 'Profile'} #{e.seq}
      </td>
      <td>{ENTRY_TYPE_NAMES[e.type] ?? e.type}</td>
      <td className="small mono wrap">
        {e.intent && (
          <button type="button" className="link" onClick={() => onFollow(e.intent!)} aria-label={`Follow ${e.intent}`}>
            {e.intent}
          </button>
        )}
      </td>
      <td className="small">{e.operators.join(', ')}</td>
      <td className="small wrap">{e.summary}</td>
    </tr>
  );
}

/** One keyset page of entries; the last page offers the next cursor. */
export function EntryRows({
  filters,
  after,
  last,
  onMore,
  onFollow,
  onField,
  putOnField,
}: {
  filters: Filters;
  after: AuditCursor | undefined;
  last: boolean;
  onMore: (c: AuditCursor) => void;
  onFollow: (intent: string) => void;
  /** The filter form's: whether a refusal names one of its fields, and putting it there. */
  onField: (error: unknown) => unknown;
  putOnField: (error: unknown) => boolean;
}) {
  const page = useDeskQuery('journalEntries', { ...filters, ...(after ? { after } : {}), limit: PAGE_SIZE });
  // The core's refusal of a filter belongs on the filter's field, not in the list.
  useEffect(() => {
    if (page.error) putOnField(page.error);
  }, [page.error, putOnField]);
  if (page.isError && onField(page.error)) return <tbody />;
  if (page.isError)
    return (
      <tbody>
        <tr>
          <td colSpan={6}>
            <ErrorPanel error={page.error} onRetry={() => void page.refetch()} />
          </td>
        </tr>
      </tbody>
    );
  const d = page.data;
  return (
    <tbody>
      {d?.items.map((e) => (
        <Row key={`${e.journal}:${e.seq}`} e={e} onFollow={onFollow} />
      ))}
      {d && !after && d.items.length === 0 && (
        <tr>
          <td colSpan={6} className="muted">
            No entries match.
          </td>
        </tr>
      )}
      {last && d?.next && (
        <tr>
          <td colSpan={6}>
            <button type="button" onClick={() => onMore(d.next!)}>
              Older entries
            </button>
          </td>
        </tr>
      )}
    </tbody>
  );
}
