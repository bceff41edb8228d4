import { lazy, Suspense, useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { withWords } from '../../components/withWords.ts';
import { useDeskQuery } from '../../desk/hooks.ts';

// The forms check with zod: they load when one is opened, so that the Withdrawals list above which this
// panel sits is not held up by the schema library (docs/performance.md §Opening the desk).
const WithdrawForm = lazy(() => withWords(import('./WithdrawForm.tsx')).then((m) => ({ default: m.WithdrawForm })));
const UidTransferForm = lazy(() => withWords(import('./UidTransferForm.tsx')).then((m) => ({ default: m.UidTransferForm })));

/**
 * Money leaving the account, on the Withdrawals page above the history. What stops a send (read-only
 * key, refused policy, no operator) is said before the form.
 */
export function SendPanel() {
  const state = useDeskQuery('approvalsState', {});
  const [form, setForm] = useState<'withdrawal' | 'uid' | null>(null);
  if (state.isError) return <ErrorPanel error={state.error} />;
  if (!state.data) return null;
  const s = state.data;
  return (
    <section aria-label="Send">
      {s.blocked && (
        <p className="error-panel" role="alert" data-testid="cannot-send">
          {s.blocked}
        </p>
      )}
      {s.needs_first_operator && <p className="card">No operator yet: the first is created in the confirmation window.</p>}
      {!s.blocked && (
        <div className="actions">
          <button type="button" className="primary" onClick={() => setForm('withdrawal')}>
            New withdrawal
          </button>
          <button type="button" onClick={() => setForm('uid')}>
            New UID transfer
          </button>
        </div>
      )}
      <Suspense fallback={<p className="muted">Opening the form…</p>}>
        {!s.blocked && form === 'withdrawal' && <WithdrawForm />}
        {!s.blocked && form === 'uid' && <UidTransferForm />}
      </Suspense>
    </section>
  );
}
