import { useState, type FormEvent } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';

/** Covers the whole window while the vault is locked; nothing is signed until it is unlocked. */
export function LockScreen({ keychain }: { keychain: boolean }) {
  const unlock = useDeskMutation('vaultUnlock');
  const [passphrase, setPassphrase] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    unlock.mutate({ passphrase }, { onSettled: () => setPassphrase('') });
  };
  return (
    <main className="lock" role="dialog" aria-label="Treasury Desk is locked">
      <form className="card form" onSubmit={submit}>
        <h1>Treasury Desk is locked</h1>
        <p className="muted">Nothing is signed while the desk is locked. {keychain ? 'Your keys are in the system keychain.' : 'Enter your passphrase to continue.'}</p>
        {!keychain && <input type="password" aria-label="Passphrase" autoFocus value={passphrase} onChange={(e) => setPassphrase(e.target.value)} autoComplete="current-password" />}
        {unlock.isError && <ErrorPanel error={unlock.error} />}
        <button type="submit" className="primary" disabled={unlock.isPending || (!keychain && !passphrase)}>{unlock.isPending ? 'Unlocking…' : 'Unlock'}</button>
      </form>
    </main>
  );
}
