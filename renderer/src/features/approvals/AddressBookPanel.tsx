import type { AddressBookEntryView } from '../../../../shared/addressBook.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { LongValue } from '../../components/LongValue.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { dateTime } from '../../components/localTime.ts';

function standing(e: AddressBookEntryView, now: number): string {
  if (e.refused) return e.refused;
  return e.ready_at > now ? `Cooling off until ${dateTime(e.ready_at)}` : 'Known destination';
}

/**
 * The address book as part of the policy: every entry with who signed it and when its cooling-off ends;
 * a removal is a proposal the change quorum approves (it takes effect once approved).
 */
export function AddressBookPanel({ onAsk }: { onAsk: (title: string) => void }) {
  const book = useDeskQuery('addressBookList', {});
  const remove = useDeskMutation('addressBookRemove');
  const now = Date.now();
  return (
    <section className="card" aria-label="Address book">
      <h2>Address book</h2>
      <p className="small muted">
        Destinations the policy counts as known once their cooling-off is over. Entries are added from the withdraw form and signed in the
        confirmation window; removing one needs the change quorum.
      </p>
      {book.isError && <ErrorPanel error={book.error} onRetry={() => void book.refetch()} />}
      {remove.isError && <ErrorPanel error={remove.error} />}
      {book.data && book.data.length === 0 && <p className="muted">No entries yet.</p>}
      {book.data && book.data.length > 0 && (
        <table className="table compact" data-testid="address-book">
          <thead>
            <tr>
              <th>Currency and chain</th>
              <th>Address</th>
              <th>Signed by</th>
              <th>Added</th>
              <th>Standing</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {book.data.map((e) => (
              <tr key={`${e.currency} ${e.chain} ${e.address} ${e.memo ?? ''} ${e.added_at}`} data-removed={e.removed}>
                <td>
                  {e.currency} on {e.chain}
                </td>
                <td>
                  <LongValue text={e.memo ? `${e.address} (memo ${e.memo})` : e.address} copy={e.address} />
                </td>
                <td>{e.signed_by ?? '—'}</td>
                <td className="small">{dateTime(e.added_at)}</td>
                <td className={`small${e.refused && !e.removed ? ' field-error' : ''}`}>{standing(e, now)}</td>
                <td>
                  {!e.removed && e.signed_by && (
                    <button
                      type="button"
                      className="small"
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(
                          {
                            currency: e.currency,
                            chain: e.chain,
                            address: e.address,
                            ...(e.memo ? { memo: e.memo } : {}),
                            added_at: e.added_at,
                          },
                          { onSuccess: (t) => onAsk(t.title) },
                        )
                      }
                    >
                      Propose removal
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
