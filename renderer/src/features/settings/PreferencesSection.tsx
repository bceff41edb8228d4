import { useEffect } from 'react';
import type { Settings } from '../../../../shared/ipc.ts';
import { useTheme, type ThemeChoice } from '../../app/theme.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { preferencesOf, PreferencesFormSchema } from './settingsForms.ts';

const THEMES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'As the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function PreferencesSection() {
  const settings = useDeskQuery('settingsGet', {});
  if (settings.isError) return <ErrorPanel error={settings.error} />;
  if (!settings.data) return null;
  return <Preferences saved={settings.data} />;
}

function Preferences({ saved }: { saved: Settings }) {
  const save = useDeskMutation('settingsSave');
  const theme = useTheme();
  const {
    register,
    handleSubmit,
    reset,
    onField,
    putOnField,
    formState: { errors, isDirty },
  } = useDeskForm(PreferencesFormSchema, { defaultValues: preferencesOf(saved) });
  // Saved elsewhere (another window, the core's event) while untouched here: show what is in force.
  useEffect(() => {
    if (!isDirty) reset(preferencesOf(saved));
  }, [saved, isDirty, reset]);
  const submit = handleSubmit((request) => save.mutate(request, { onSuccess: (next) => reset(preferencesOf(next)), onError: putOnField }));
  return (
    <form className="card form" onSubmit={(e) => void submit(e)} aria-label="Preferences" noValidate>
      <h2>Preferences</h2>
      <Field label="Theme">
        <select value={theme.choice} onChange={(e) => theme.choose(e.target.value as ThemeChoice)}>
          {THEMES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Lock after this many idle minutes" error={fieldMessage(errors.idle_lock_minutes)}>
        <input inputMode="numeric" {...register('idle_lock_minutes')} />
      </Field>
      <Field
        label="Seconds a write stays in doubt after its deadline (at least 60 on a live exchange)"
        error={fieldMessage(errors.settle_seconds)}
      >
        <input inputMode="numeric" {...register('settle_seconds')} />
      </Field>
      {save.isError && !onField(save.error) && <ErrorPanel error={save.error} />}
      {save.isSuccess && !isDirty && <p role="status">Preferences saved.</p>}
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          Save preferences
        </button>
      </div>
    </form>
  );
}
