import { useState, type FormEvent } from 'react';
import type { ConfirmApi } from '../../shared/confirm.ts';

// A new operator makes their key here, at their own desk, so that its private half never leaves it; the
// enrolment code shown (their key's id and public half, nothing secret) is what an operator at another
// desk types into "Propose a new operator". The fingerprint goes by another way (read aloud): whoever
// carried the code could have put their own key in it, and the proposing desk refuses a mismatch.

export function MakeOwnKey({ desk }: { desk: ConfirmApi }) {
  const [name, setName] = useState('');
  const [pass, setPass] = useState('');
  const [made, setMade] = useState<{ enrolment: string; fingerprint: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await desk.confirmMakeOperatorKey({ name, passphrase: pass });
      if (r.ok) {
        setPass('');
        setMade(r.data);
      } else setError(r.error.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="card" aria-label="Make my operator key">
      <summary>Make my operator key here (to be proposed by a team operator)</summary>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <fieldset className="plain" disabled={busy}>
          <label>
            Your name
            <input value={name} onChange={(e) => setName(e.target.value)} aria-label="Your name" />
          </label>
          <label>
            Your passphrase (at least 10 characters)
            <input type="password" value={pass} onChange={(e) => setPass(e.target.value)} aria-label="Your passphrase" />
          </label>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <p className="muted small" role="status" aria-live="polite">
            {busy ? 'Making your key… sealing it with your passphrase.' : ''}
          </p>
          <button type="submit">{busy ? 'Making…' : 'Make my key'}</button>
        </fieldset>
      </form>
      {made && (
        <>
          <label>
            Your enrolment code: give it to the operator who proposes you (it holds no secret)
            <textarea readOnly value={made.enrolment} rows={3} aria-label="Enrolment code" />
          </label>
          <p>
            Your key&apos;s fingerprint: <strong data-testid="enrolment-fingerprint">{made.fingerprint}</strong>
          </p>
          <p className="small muted">
            Read it to the proposing operator yourself, in person or by phone, not in the message that carries the code: their desk refuses
            a code whose key does not have this fingerprint.
          </p>
        </>
      )}
    </details>
  );
}
