import type { FormEvent } from 'react';
import { ENVIRONMENTS, ENVIRONMENT_NAMES } from '../../../../shared/api/environments.ts';
import { AuditorProfileInput, type ProfileSummary } from '../../../../shared/ipc.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';

/**
 * An auditor profile: a name and the environment whose approvals it audits. It holds no key, so there is
 * nothing to check with the exchange; while it is active the desk reads and verifies, and signs and sends nothing.
 */
export function AuditorProfileForm({ existing, onDone }: { existing?: ProfileSummary; onDone: () => void }) {
  const save = useDeskMutation('profileSaveAuditor');
  const {
    register,
    handleSubmit,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm(AuditorProfileInput, {
    defaultValues: { ...(existing ? { id: existing.id } : {}), name: existing?.name ?? '', environment: existing?.environment ?? 'live' },
  });
  const submit = (e: FormEvent) => {
    save.reset();
    void handleSubmit((input) => save.mutate(input, { onSuccess: onDone, onError: putOnField }))(e);
  };
  return (
    <form
      className="form"
      onSubmit={submit}
      aria-label={existing ? `Edit auditor profile ${existing.name}` : 'New auditor profile'}
      noValidate
    >
      <h2>{existing ? `Edit ${existing.name}` : 'New auditor profile'}</h2>
      <p className="muted small">
        No exchange key: this profile shows the approvals&apos; queue, records and Verify, read-only. It signs, drafts and sends nothing.
      </p>
      <Field label="Name" error={fieldMessage(errors.name)}>
        <input autoFocus autoComplete="off" {...register('name')} />
      </Field>
      <Field label="Environment it audits" error={fieldMessage(errors.environment)}>
        <select {...register('environment')}>
          {ENVIRONMENT_NAMES.map((env) => (
            <option key={env} value={env}>
              {ENVIRONMENTS[env].label}
            </option>
          ))}
        </select>
      </Field>
      {save.isError && !onField(save.error) && <ErrorPanel error={save.error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
        <button type="button" onClick={onDone} disabled={save.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
