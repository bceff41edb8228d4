import { useState, type FormEvent } from 'react';
import { useFieldArray, type FieldErrors } from 'react-hook-form';
import { ENVIRONMENTS, PERMISSION_GROUP_NAMES, PERMISSION_GROUPS } from '../../../../shared/api/environments.ts';
import type { ProfileInput, ProfileSummary } from '../../../../shared/ipc.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { AuditorProfileForm } from './AuditorProfileForm.tsx';
import { initialValues, ProfileFormSchema, type ProfileFormValues } from './profileFormSchema.ts';

type Env = ProfileFormValues['environment'];

function subError(errors: FieldErrors<ProfileFormValues>, i: number, f: 'uid' | 'key' | 'secret'): string | undefined {
  return fieldMessage(errors.sub_keys?.[i]?.[f]);
}

/**
 * Add or edit a profile: one with an exchange key, or an auditor profile (no key). An existing profile
 * stays the kind it is.
 */
export function ProfileForm({ existing, onDone }: { existing?: ProfileSummary; onDone: () => void }) {
  const [kind, setKind] = useState<'key' | 'auditor'>(existing?.auditor ? 'auditor' : 'key');
  return (
    <>
      {!existing && (
        <fieldset className="row">
          <legend>Kind of profile</legend>
          <label className="inline">
            <input type="radio" name="profile-kind" checked={kind === 'key'} onChange={() => setKind('key')} /> With an exchange key
          </label>
          <label className="inline">
            <input type="radio" name="profile-kind" checked={kind === 'auditor'} onChange={() => setKind('auditor')} /> Auditor: no exchange
            key (reads and verifies the team&apos;s approvals)
          </label>
        </fieldset>
      )}
      {kind === 'auditor' ? (
        <AuditorProfileForm {...(existing ? { existing } : {})} onDone={onDone} />
      ) : (
        <KeyProfileForm {...(existing ? { existing } : {})} onDone={onDone} />
      )}
    </>
  );
}

/** A profile with a key. The form checks with the contract's own schema; the core then makes one read call with the key before storing it. */
function KeyProfileForm({ existing, onDone }: { existing?: ProfileSummary; onDone: () => void }) {
  const save = useDeskMutation('profileSave');
  const {
    register,
    handleSubmit,
    setValue,
    control,
    watch,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm<ProfileFormValues, ProfileInput>(ProfileFormSchema as never, {
    defaultValues: initialValues(existing, ENVIRONMENTS.live),
  });
  const subs = useFieldArray({ control, name: 'sub_keys' });
  // The core carries stored keys over only when the profile stays where it was (same address, same environment).
  const [baseUrl, environment] = watch(['base_url', 'environment']);
  const moved =
    existing !== undefined && (baseUrl.trim().replace(/\/+$/, '') !== existing.base_url || environment !== existing.environment);
  const keep = existing !== undefined && !moved;
  const again = moved ? 'Enter it again: the address or environment changed.' : undefined;

  const chooseEnvironment = (env: Env) => {
    setValue('base_url', ENVIRONMENTS[env].base_url);
    setValue('svc', ENVIRONMENTS[env].svc);
  };
  // A new attempt clears the last one's answer, so two messages never stand side by side.
  const submit = (e: FormEvent) => {
    save.reset();
    void handleSubmit((input) => save.mutate(input, { onSuccess: onDone, onError: putOnField }))(e);
  };

  return (
    <form className="form" onSubmit={submit} aria-label={existing ? `Edit profile ${existing.name}` : 'New profile'} noValidate>
      <h2>{existing ? `Edit ${existing.name}` : 'New profile'}</h2>
      <Field label="Name" error={fieldMessage(errors.name)}>
        <input autoFocus autoComplete="off" {...register('name')} />
      </Field>
      <Field label="Environment">
        <select {...register('environment', { onChange: (e) => chooseEnvironment(e.target.value as Env) })}>
          {(['live', 'testnet', 'futures'] as const).map((env) => (
            <option key={env} value={env}>
              {ENVIRONMENTS[env].label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Base address" error={fieldMessage(errors.base_url)}>
        <input autoComplete="off" {...register('base_url')} />
      </Field>
      <Field label="Service name in headers" error={fieldMessage(errors.svc)}>
        <input autoComplete="off" {...register('svc')} />
      </Field>
      <Field label="API key" error={fieldMessage(errors.key)} hint={keep ? `Leave empty to keep ${existing.key_masked}.` : again}>
        <input autoComplete="off" spellCheck={false} {...register('key')} />
      </Field>
      <Field label="API secret" error={fieldMessage(errors.secret)} hint={keep ? 'Leave empty to keep the stored secret.' : again}>
        <input type="password" autoComplete="new-password" {...register('secret')} />
      </Field>

      <fieldset>
        <legend>What this key may do (as set in the exchange console)</legend>
        <table className="table compact">
          <tbody>
            {PERMISSION_GROUPS.map((g) => (
              <tr key={g}>
                <th scope="row">{PERMISSION_GROUP_NAMES[g]}</th>
                {(['none', 'read', 'write'] as const).map((level) => (
                  <td key={level}>
                    <label className="inline">
                      <input type="radio" value={level} {...register(`permissions.${g}`)} />
                      {level === 'none' ? 'disabled' : level === 'read' ? 'read-only' : 'read-write'}
                    </label>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <label className="inline">
          <input type="checkbox" {...register('permissions.unified')} /> Unified account
        </label>
      </fieldset>

      <fieldset>
        <legend>Sub-account keys (optional; needed for transfers made inside a sub-account)</legend>
        {subs.fields.map((f, i) => (
          <div className="row" key={f.id}>
            <Field label={`Sub-account ${i + 1} uid`} error={subError(errors, i, 'uid')}>
              <input {...register(`sub_keys.${i}.uid`)} />
            </Field>
            <Field label={`Sub-account ${i + 1} key`} error={subError(errors, i, 'key')}>
              <input {...register(`sub_keys.${i}.key`)} />
            </Field>
            <Field label={`Sub-account ${i + 1} secret`} error={subError(errors, i, 'secret')}>
              <input type="password" {...register(`sub_keys.${i}.secret`)} />
            </Field>
            <button type="button" onClick={() => subs.remove(i)}>
              Remove sub-account {i + 1}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => subs.append({ uid: '', key: '', secret: '' })}>
          Add a sub-account key
        </button>
      </fieldset>

      {save.isPending && <p role="status">Checking the key with the exchange…</p>}
      {save.isError && !onField(save.error) && <ErrorPanel error={save.error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          Check and save
        </button>
        <button type="button" onClick={onDone} disabled={save.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
