import { useMemo, useRef } from 'react';
import type { VaultStatus } from '../../../../shared/ipc.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { PASSPHRASE_DEFAULTS, passphraseFormSchema } from './settingsForms.ts';

export function VaultSection() {
  const status = useDeskQuery('vaultStatus', {});
  if (status.isError) return <ErrorPanel error={status.error} />;
  if (!status.data) return null;
  return <Vault s={status.data} />;
}

function Vault({ s }: { s: VaultStatus }) {
  const setPassphrase = useDeskMutation('vaultSetPassphrase');
  const lock = useDeskMutation('vaultLock');
  // The vault's state can change while the form is open (an event): the check reads it when it runs.
  const vault = useRef(s);
  vault.current = s;
  const schema = useMemo(() => passphraseFormSchema(() => vault.current), []);
  const {
    register,
    handleSubmit,
    reset,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm(schema, { defaultValues: PASSPHRASE_DEFAULTS });
  const submit = handleSubmit((request) =>
    setPassphrase.mutate(request, { onSuccess: () => reset(PASSPHRASE_DEFAULTS), onError: putOnField }),
  );
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
      <form
        onSubmit={(e) => {
          setPassphrase.reset();
          void submit(e);
        }}
        className="row"
        aria-label="Passphrase"
        noValidate
      >
        {s.passphrase_set && (
          <Field label="Current passphrase" error={fieldMessage(errors.current)}>
            <input type="password" {...register('current')} autoComplete="current-password" />
          </Field>
        )}
        <Field label="New passphrase" error={fieldMessage(errors.next)}>
          <input
            type="password"
            data-field="new-passphrase"
            placeholder="10 characters or more"
            {...register('next')}
            autoComplete="new-password"
          />
        </Field>
        <Field label="Repeat new passphrase" error={fieldMessage(errors.again)}>
          <input type="password" {...register('again')} autoComplete="new-password" />
        </Field>
        {s.backend === 'safeStorage' && (
          <label className="small inline">
            <input type="checkbox" {...register('leave_keychain')} /> Move the keys from the keychain to this passphrase
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
      {setPassphrase.isError && !onField(setPassphrase.error) && <ErrorPanel error={setPassphrase.error} />}
      {setPassphrase.isSuccess && <p role="status">Passphrase saved.</p>}
    </div>
  );
}
