import { useState, type FormEvent } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';

export function VaultSection() {
  const status = useDeskQuery('vaultStatus', {});
  const setPassphrase = useDeskMutation('vaultSetPassphrase');
  const lock = useDeskMutation('vaultLock');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [leaveKeychain, setLeaveKeychain] = useState(false);

  if (status.isError) return <ErrorPanel error={status.error} />;
  if (!status.data) return null;
  const s = status.data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setPassphrase.reset();
    if (next.length < 10) return setProblem('A passphrase has at least 10 characters.');
    if (next !== again) return setProblem('The two new passphrases differ.');
    setProblem(null);
    const confirm = s.backend === 'safeStorage' && leaveKeychain ? { leave_keychain: true as const } : {};
    setPassphrase.mutate(
      { ...(s.passphrase_set ? { current } : {}), ...confirm, next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setAgain('');
          setLeaveKeychain(false);
        },
      },
    );
  };
  return (
    <div className="card" data-testid="vault">
      <h2>Keys at rest</h2>
      <p>
        {s.backend === 'safeStorage' && "Secrets are encrypted by the operating system's keychain."}
        {s.backend === 'passphrase' && 'Secrets are encrypted with a key derived from your passphrase (scrypt, AES-256-GCM).'}
        {s.backend === null && 'No live key is stored yet.'}
        {/* Why the keychain is not used matters only until a passphrase protects the keys instead. */}
        {s.keychain_note && !s.passphrase_set && <span className="muted small"> {s.keychain_note}</span>}
      </p>
      <form onSubmit={submit} className="row" aria-label="Passphrase" noValidate>
        {s.passphrase_set && (
          <Field label="Current passphrase">
            <input type="password" value={current} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />
          </Field>
        )}
        <Field label="New passphrase" error={problem?.includes('10') ? problem : undefined}>
          <input
            type="password"
            data-field="new-passphrase"
            placeholder="10 characters or more"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            autoComplete="new-password"
          />
        </Field>
        <Field label="Repeat new passphrase" error={problem?.includes('differ') ? problem : undefined}>
          <input type="password" value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" />
        </Field>
        {s.backend === 'safeStorage' && (
          <label className="small inline">
            <input type="checkbox" checked={leaveKeychain} onChange={(e) => setLeaveKeychain(e.target.checked)} /> Move the keys from the
            keychain to this passphrase
          </label>
        )}
        <button type="submit" disabled={setPassphrase.isPending}>
          {s.passphrase_set ? 'Change passphrase' : 'Set passphrase'}
        </button>
        {s.passphrase_set && (
          <button type="button" onClick={() => lock.mutate({})}>
            Lock now
          </button>
        )}
      </form>
      {setPassphrase.isError && <ErrorPanel error={setPassphrase.error} />}
      {setPassphrase.isSuccess && <p role="status">Passphrase saved.</p>}
    </div>
  );
}
