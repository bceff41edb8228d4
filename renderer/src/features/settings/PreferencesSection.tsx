import { useState, type FormEvent } from 'react';
import { useTheme, type ThemeChoice } from '../../app/theme.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';

const THEMES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'As the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function PreferencesSection() {
  const settings = useDeskQuery('settingsGet', {});
  const save = useDeskMutation('settingsSave');
  const theme = useTheme();
  const [draft, setDraft] = useState<{ idle: string; settle: string } | null>(null);
  if (settings.isError) return <ErrorPanel error={settings.error} />;
  if (!settings.data) return null;
  const idle = draft?.idle ?? String(settings.data.idle_lock_minutes);
  const settle = draft?.settle ?? String(settings.data.settle_seconds);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ idle_lock_minutes: Number(idle), settle_seconds: Number(settle) }, { onSuccess: () => setDraft(null) });
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="Preferences">
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
      <Field label="Lock after this many idle minutes">
        <input inputMode="numeric" value={idle} onChange={(e) => setDraft({ idle: e.target.value, settle })} />
      </Field>
      <Field label="Seconds a write's id must stay absent before it is sent again">
        <input inputMode="numeric" value={settle} onChange={(e) => setDraft({ idle, settle: e.target.value })} />
      </Field>
      {save.isError && <ErrorPanel error={save.error} />}
      {save.isSuccess && !draft && <p role="status">Preferences saved.</p>}
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          Save preferences
        </button>
      </div>
    </form>
  );
}
