import { useState, type FormEvent } from 'react';
import { ENVIRONMENTS, PERMISSION_GROUP_NAMES, PERMISSION_GROUPS } from '../../../shared/api/environments.ts';
import { ProfileInput, type Permissions, type ProfileSummary } from '../../../shared/ipc.ts';
import { useDeskMutation } from '../hooks/useDeskMutation.ts';
import { ErrorPanel } from './ErrorPanel.tsx';

type Env = 'live' | 'testnet' | 'futures';
interface SubRow { uid: string; key: string; secret: string }

const NEW_PERMISSIONS: Permissions = { spot: 'read', futures: 'read', delivery: 'none', wallet: 'read', withdraw: 'none', unified: false };

/** Add or edit a profile. The form checks with the contract's own schema; the core then makes one read call with the key before storing it. */
export function ProfileForm({ existing, onDone }: { existing?: ProfileSummary; onDone: () => void }) {
  const [name, setName] = useState(existing?.name ?? '');
  const [environment, setEnvironment] = useState<Env>((existing?.environment as Env) ?? 'live');
  const [baseUrl, setBaseUrl] = useState(existing?.base_url ?? ENVIRONMENTS.live.base_url);
  const [svc, setSvc] = useState(existing?.svc ?? ENVIRONMENTS.live.svc);
  const [key, setKey] = useState('');
  const [secret, setSecret] = useState('');
  const [permissions, setPermissions] = useState<Permissions>(existing?.permissions ?? NEW_PERMISSIONS);
  const [subs, setSubs] = useState<SubRow[]>(existing?.sub_keys.map((s) => ({ uid: s.uid, key: '', secret: '' })) ?? []);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const save = useDeskMutation('profileSave');

  const chooseEnvironment = (env: Env) => {
    setEnvironment(env);
    setBaseUrl(ENVIRONMENTS[env].base_url);
    setSvc(ENVIRONMENTS[env].svc);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const candidate = {
      ...(existing ? { id: existing.id } : {}),
      name, environment, base_url: baseUrl, svc,
      ...(key ? { key } : {}),
      ...(secret ? { secret } : {}),
      permissions,
      sub_keys: subs.map((s) => ({ uid: s.uid, ...(s.key ? { key: s.key } : {}), ...(s.secret ? { secret: s.secret } : {}) })),
    };
    const parsed = ProfileInput.safeParse(candidate);
    if (!parsed.success) {
      setProblems(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message])));
      return;
    }
    setProblems({});
    save.mutate(parsed.data, { onSuccess: onDone });
  };

  // The core carries stored keys over only when the profile stays where it was (same address, same environment).
  const moved = existing !== undefined && (baseUrl.trim().replace(/\/+$/, '') !== existing.base_url || environment !== existing.environment);
  const keep = existing !== undefined && !moved;
  const again = moved ? 'enter it again: the address or environment changed' : '';

  const field = (path: string) => (problems[path] ? <span className="field-error" role="alert">{problems[path]}</span> : null);

  return (
    <form className="card form" onSubmit={submit} aria-label={existing ? `Edit profile ${existing.name}` : 'New profile'} noValidate>
      <h2>{existing ? `Edit ${existing.name}` : 'New profile'}</h2>
      <label>Name <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />{field('name')}</label>
      <label>Environment
        <select value={environment} onChange={(e) => chooseEnvironment(e.target.value as Env)}>
          {(['live', 'testnet', 'futures'] as const).map((env) => <option key={env} value={env}>{ENVIRONMENTS[env].label}</option>)}
        </select>
      </label>
      <label>Base address <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} autoComplete="off" />{field('base_url')}</label>
      <label>Service name in headers <input value={svc} onChange={(e) => setSvc(e.target.value)} autoComplete="off" />{field('svc')}</label>
      <label>API key <input value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" spellCheck={false}
        placeholder={keep ? `leave empty to keep ${existing.key_masked}` : again} />{field('key')}</label>
      <label>API secret <input type="password" value={secret} onChange={(e) => setSecret(e.target.value)} autoComplete="new-password"
        placeholder={keep ? 'leave empty to keep the stored secret' : again} />{field('secret')}</label>

      <fieldset>
        <legend>What this key may do (as set in the exchange console)</legend>
        <table className="table compact">
          <tbody>
            {PERMISSION_GROUPS.map((g) => (
              <tr key={g}>
                <td>{PERMISSION_GROUP_NAMES[g]}</td>
                {(['none', 'read', 'write'] as const).map((level) => (
                  <td key={level}>
                    <label className="inline">
                      <input type="radio" name={`perm-${g}`} checked={permissions[g] === level}
                        onChange={() => setPermissions({ ...permissions, [g]: level })} />
                      {level === 'none' ? 'disabled' : level === 'read' ? 'read-only' : 'read-write'}
                    </label>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <label className="inline"><input type="checkbox" checked={permissions.unified} onChange={(e) => setPermissions({ ...permissions, unified: e.target.checked })} /> Unified account</label>
      </fieldset>

      <fieldset>
        <legend>Sub-account keys (optional; needed for transfers made inside a sub-account)</legend>
        {subs.map((s, i) => (
          <div className="row" key={i}>
            <input aria-label={`Sub-account ${i + 1} uid`} placeholder="uid" value={s.uid} onChange={(e) => setSubs(subs.map((x, j) => (j === i ? { ...x, uid: e.target.value } : x)))} />
            <input aria-label={`Sub-account ${i + 1} key`} placeholder={keep ? 'key (empty keeps it)' : 'key'} value={s.key} onChange={(e) => setSubs(subs.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))} />
            <input aria-label={`Sub-account ${i + 1} secret`} type="password" placeholder={keep ? 'secret (empty keeps it)' : 'secret'} value={s.secret}
              onChange={(e) => setSubs(subs.map((x, j) => (j === i ? { ...x, secret: e.target.value } : x)))} />
            <button type="button" onClick={() => setSubs(subs.filter((_, j) => j !== i))}>Remove</button>
            {field(`sub_keys.${i}.uid`)}{field(`sub_keys.${i}.key`)}{field(`sub_keys.${i}.secret`)}
          </div>
        ))}
        <button type="button" onClick={() => setSubs([...subs, { uid: '', key: '', secret: '' }])}>Add a sub-account key</button>
      </fieldset>

      {save.isPending && <p role="status">Checking the key with the exchange…</p>}
      {save.isError && <ErrorPanel error={save.error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>Check and save</button>
        <button type="button" onClick={onDone} disabled={save.isPending}>Cancel</button>
      </div>
    </form>
  );
}
