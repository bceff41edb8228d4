import { useDeskQuery } from '../../desk/hooks.ts';

// While the team store is refused as tampering the queue is not shown (nothing in it can be trusted), but
// which requests the refused row touches is: the team card's list (docs/team.md §Every read verifies
// every row), the requests whose records, as this desk last verified them, sit at or after that row.

export function TamperedRows() {
  const status = useDeskQuery('teamStatus', {});
  const t = status.data?.team?.tampered;
  if (!t) return null;
  return (
    <section className="card" data-testid="tampered-rows">
      <h2>Requests the refused row touches</h2>
      <p className="small">
        Row {t.seq} of the team store is refused ({t.reason}). These requests have a record at or after it; none of them is signed or sent
        until the store verifies again:
      </p>
      <ul>
        {t.requests.map((r) => (
          <li key={r.ref} data-testid="tampered-request">
            <strong>Tampered:</strong> {r.summary} <span className="muted small">({r.ref})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
