import { useState, type FormEvent } from 'react';
import type { ConfirmApi, ConfirmState } from '../../shared/confirm.ts';
import { dateTime } from '../src/components/localTime.ts';

/**
 * A wedged desk's way out (its policy needs more signers than its operators can give): the vault's own
 * credential starts a recovery, which freezes the desk at once and, after the cooling-off, puts the
 * default policy in force with every operator an admin. Shown only while the core says it is wedged, or
 * while a recovery waits out its cooling-off.
 */
export function Recovery({ state, desk, onDone }: { state: ConfirmState; desk: ConfirmApi; onDone: (msg: string) => void }) {
  const [reason, setReason] = useState('');
  const [vault, setVault] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (state.recovery && state.recovery.effective_at > Date.now())
    return (
      <section className="card" aria-label="Recovery under way" data-testid="recovery">
        <h2>Recovery under way</h2>
        <p>
          The desk is frozen and sends nothing. On {dateTime(state.recovery.effective_at)} the default policy takes effect and every
          operator in force becomes an admin; an operator then unfreezes the desk and proposes a policy the operators can meet.
        </p>
      </section>
    );
  if (!state.wedged) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await desk.confirmRecover({ reason, ...(state.wedged?.credential === 'vault' ? { vault_passphrase: vault } : {}) });
      setVault('');
      if (r.ok) onDone(`Recovery started: the desk is frozen; the default policy takes effect ${dateTime(r.data.effective_at)}.`);
      else setError(r.error.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-label="Recover a wedged desk" data-testid="recovery">
      <h2>This desk is wedged</h2>
      <p className="field-error">{state.wedged.why}</p>
      <p className="small">
        A recovery {state.wedged.credential === 'vault' ? "needs the vault's own passphrase, " : ''}freezes the desk at once (nothing is
        sent meanwhile), is recorded in the governance journal with its reason, and after the cooling-off puts the default policy in force
        and makes every operator in force an admin.
      </p>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <fieldset className="plain" disabled={busy}>
          <label>
            Why
            <input value={reason} onChange={(e) => setReason(e.target.value)} aria-label="Why recover" />
          </label>
          {state.wedged.credential === 'vault' && (
            <label>
              Vault passphrase
              <input type="password" value={vault} onChange={(e) => setVault(e.target.value)} aria-label="Vault passphrase" />
            </label>
          )}
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit">{busy ? 'Starting…' : 'Start the recovery'}</button>
        </fieldset>
      </form>
    </section>
  );
}
