import type { UnreadRecord } from '../../../shared/unread.ts';
import { unreadText } from '../../../shared/unreadText.ts';

/** Where a list is shown: how many of its records the desk set aside as malformed, and which, with what was wrong. */
export function UnreadNotice({ records, what }: { records: readonly UnreadRecord[]; what: string }) {
  if (records.length === 0) return null;
  return (
    <details className="notice warn" data-testid="unread-notice">
      <summary>
        {unreadText(records.length)}: {what} leave them out.
      </summary>
      <ul>
        {records.map((r, i) => (
          <li key={i}>
            {r.endpoint}, {r.record}: {r.field} {r.problem}
          </li>
        ))}
      </ul>
    </details>
  );
}
