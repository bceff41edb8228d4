import { useState, type FormEvent } from 'react';
import { PERMISSION_GROUP_NAMES, PERMISSION_GROUPS } from '../../../shared/api/environments.ts';
import type { ProfileSummary } from '../../../shared/ipc.ts';
import { ErrorPanel } from '../components/ErrorPanel.tsx';
import { ProfileForm } from '../components/ProfileForm.tsx';
import { useDeskMutation } from '../hooks/useDeskMutation.ts';
import { useDeskQuery } from '../hooks/useDeskQuery.ts';

function permissionText(p: ProfileSummary['permissions']): string {
  const parts = PERMISSION_GROUPS.filter((g) => p[g] !== 'none').map((g) => `${PERMISSION_GROUP_NAMES[g]} ${p[g] === 'write' ? 'rw' : 'r'}`);
  return [...parts, ...(p.unified ? ['unified'] : [])].join(' · ') || 'no permissions';
}

function ProfilesSection() {
  const list = useDeskQuery('profilesList', {});
  const select = useDeskMutation('profileSelect');
  const remove = useDeskMutation('profileRemove');
  const [editing, setEditing] = useState<ProfileSummary | 'new' | null>(null);
  const [confirmRemove, setConfirmRemove] = useState<ProfileSummary | null>(null);

  if (list.isError) return <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <p role="status">Loading profiles…</p>;
  return (
    <div className="card">
      <h2>Profiles</h2>
      <table className="table" data-testid="profiles">
        <thead><tr><th>Name</th><th>Environment</th><th>Key</th><th>Permissions</th><th /></tr></thead>
        <tbody>
          {list.data.profiles.map((p) => (
            <tr key={p.id} data-profile={p.name}>
              <td>{p.name}{p.id === list.data.active_id && <span className="badge">active</span>}</td>
              <td><span className={`env env-${p.environment}`}>{p.environment}</span> <span className="muted small">{p.base_url}</span></td>
              <td className="mono">{p.key_masked}{p.sub_keys.length > 0 && <span className="muted small"> +{p.sub_keys.length} sub-account keys</span>}</td>
              <td className="small">{permissionText(p.permissions)}</td>
              <td className="actions">
                {p.id !== list.data.active_id && <button type="button" onClick={() => select.mutate({ id: p.id })}>Use</button>}
                {!p.built_in && <button type="button" onClick={() => setEditing(p)}>Edit</button>}
                {!p.built_in && <button type="button" className="danger" onClick={() => setConfirmRemove(p)}>Remove</button>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {select.isError && <ErrorPanel error={select.error} />}
      {remove.isError && <ErrorPanel error={remove.error} />}
      {confirmRemove && (
        <div className="confirm" role="alertdialog" aria-label="Confirm removal">
          <p>Remove the profile <strong>{confirmRemove.name}</strong> and its stored key? The key stays valid at the exchange; revoke it there if it is no longer needed.</p>
          <button type="button" className="danger" onClick={() => remove.mutate({ id: confirmRemove.id }, { onSettled: () => setConfirmRemove(null) })}>Remove profile</button>
          <button type="button" onClick={() => setConfirmRemove(null)}>Keep it</button>
        </div>
      )}
      {editing === null && <button type="button" className="primary" onClick={() => setEditing('new')}>Add a profile</button>}
      {editing !== null && <ProfileForm existing={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />}
    </div>
  );
}

function VaultSection() {
  const status = useDeskQuery('vaultStatus', {});
  const setPassphrase = useDeskMutation('vaultSetPassphrase');
  const lock = useDeskMutation('vaultLock');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [leaveKeychain, setLeaveKeychain] = useState(false);

  if (status.isError) return <ErrorPanel error={status.error} />;
  if (!status.data) return null;
  const s = status.data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (next !== again) return setMismatch(true);
    setMismatch(false);
    const confirm = s.backend === 'safeStorage' && leaveKeychain ? { leave_keychain: true as const } : {};
    setPassphrase.mutate({ ...(s.passphrase_set ? { current } : {}), ...confirm, next }, { onSuccess: () => { setCurrent(''); setNext(''); setAgain(''); setLeaveKeychain(false); } });
  };
  return (
    <div className="card" data-testid="vault">
      <h2>Keys at rest</h2>
      <p>
        {s.backend === 'safeStorage' && 'Secrets are encrypted by the operating system\'s keychain.'}
        {s.backend === 'passphrase' && 'Secrets are encrypted with a key derived from your passphrase (scrypt, AES-256-GCM).'}
        {s.backend === null && 'No live key is stored yet.'}
        {s.keychain_note && <span className="muted small"> {s.keychain_note}</span>}
      </p>
      <form onSubmit={submit} className="row" aria-label="Passphrase">
        {s.passphrase_set && <input type="password" aria-label="Current passphrase" placeholder="current passphrase" value={current} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />}
        <input type="password" aria-label="New passphrase" placeholder="new passphrase (10+ characters)" value={next} onChange={(e) => setNext(e.target.value)} autoComplete="new-password" />
        <input type="password" aria-label="Repeat new passphrase" placeholder="repeat it" value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" />
        {s.backend === 'safeStorage' && (
          <label className="small"><input type="checkbox" checked={leaveKeychain} onChange={(e) => setLeaveKeychain(e.target.checked)} /> Move the keys from the keychain to this passphrase</label>
        )}
        <button type="submit" disabled={setPassphrase.isPending}>{s.passphrase_set ? 'Change passphrase' : 'Set passphrase'}</button>
        {s.passphrase_set && <button type="button" onClick={() => lock.mutate({})}>Lock now</button>}
      </form>
      {mismatch && <p className="field-error" role="alert">The two new passphrases differ.</p>}
      {setPassphrase.isError && <ErrorPanel error={setPassphrase.error} />}
      {setPassphrase.isSuccess && <p role="status">Passphrase saved.</p>}
    </div>
  );
}

function PreferencesSection() {
  const settings = useDeskQuery('settingsGet', {});
  const save = useDeskMutation('settingsSave');
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
      <label>Lock after this many idle minutes <input inputMode="numeric" value={idle} onChange={(e) => setDraft({ idle: e.target.value, settle })} /></label>
      <label>Seconds a write's id must stay absent before it is sent again <input inputMode="numeric" value={settle} onChange={(e) => setDraft({ idle, settle: e.target.value })} /></label>
      {save.isError && <ErrorPanel error={save.error} />}
      <div className="actions"><button type="submit" disabled={save.isPending}>Save preferences</button></div>
    </form>
  );
}

export function SettingsPage() {
  return (
    <section className="page">
      <header className="page-header"><h1>Settings</h1></header>
      <ProfilesSection />
      <VaultSection />
      <PreferencesSection />
    </section>
  );
}
