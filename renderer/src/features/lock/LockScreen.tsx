import { useEffect, useState } from 'react';
import { channels } from '../../../../shared/ipc.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { secondsLeft, waitSentence } from './unlockWait.ts';

/**
 * Covers the whole window while the vault is locked; nothing is signed until it is unlocked. After
 * failed passphrases the core makes the next try wait; the screen says how long and counts down.
 */
export function LockScreen({ keychain, waitMs }: { keychain: boolean; waitMs: number }) {
  const unlock = useDeskMutation('vaultUnlock');
  const {
    register,
    handleSubmit,
    resetField,
    watch,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm(channels.vaultUnlock.request, { defaultValues: { passphrase: '' } });
  const passphrase = watch('passphrase');
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
  // A passphrase is typed once per try: it is cleared whatever the answer, and a refusal naming it stays on it.
  const submit = handleSubmit((request) =>
    unlock.mutate(request, {
      onSuccess: () => resetField('passphrase'),
      onError: (error) => {
        resetField('passphrase', { keepError: true });
        putOnField(error);
      },
    }),
  );
  const problem = fieldMessage(errors.passphrase);
  return (
    <main className="lock" role="dialog" aria-label="Treasury Desk is locked">
      <form className="card form" onSubmit={(e) => void submit(e)} noValidate>
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
            {...register('passphrase')}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'lock-passphrase-error' : undefined}
            autoComplete="current-password"
          />
        )}
        {problem && (
          <p id="lock-passphrase-error" className="field-error">
            {problem}
          </p>
        )}
        {wait && (
          <p role="status" data-testid="unlock-wait">
            {wait}
          </p>
        )}
        {unlock.isError && !wait && !onField(unlock.error) && <ErrorPanel error={unlock.error} />}
        <button type="submit" className="primary" disabled={unlock.isPending || wait !== null || (!keychain && !passphrase)}>
          {unlock.isPending ? 'Unlocking…' : 'Unlock'}
        </button>
      </form>
    </main>
  );
}
