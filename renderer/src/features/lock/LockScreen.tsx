import { useEffect, useState, type FormEvent } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { secondsLeft, waitSentence } from './unlockWait.ts';

/**
 * Covers the whole window while the vault is locked; nothing is signed until it is unlocked. After
 * failed passphrases the core makes the next try wait; the screen says how long and counts down.
 */
export function LockScreen({ keychain, waitMs }: { keychain: boolean; waitMs: number }) {
  const unlock = useDeskMutation('vaultUnlock');
  const [passphrase, setPassphrase] = useState('');
  const [receivedAt, setReceivedAt] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setReceivedAt(Date.now());
    setNow(Date.now());
    if (waitMs <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [waitMs]);
  const seconds = secondsLeft(waitMs, receivedAt, now);
  const wait = waitSentence(seconds);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    unlock.mutate({ passphrase }, { onSettled: () => setPassphrase('') });
  };
  return (
    <main className="lock" role="dialog" aria-label="Treasury Desk is locked">
      <form className="card form" onSubmit={submit}>
        <h1>Treasury Desk is locked</h1>
        <p className="muted">
          Nothing is signed while the desk is locked.{' '}
          {keychain ? 'Your keys are in the system keychain.' : 'Enter your passphrase to continue.'}
        </p>
        {!keychain && (
          <input
            type="password"
            aria-label="Passphrase"
            autoFocus
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
            autoComplete="current-password"
          />
        )}
        {wait && (
          <p role="status" data-testid="unlock-wait">
            {wait}
          </p>
        )}
        {unlock.isError && !wait && <ErrorPanel error={unlock.error} />}
        <button type="submit" className="primary" disabled={unlock.isPending || wait !== null || (!keychain && !passphrase)}>
          {unlock.isPending ? 'Unlocking…' : 'Unlock'}
        </button>
      </form>
    </main>
  );
}
