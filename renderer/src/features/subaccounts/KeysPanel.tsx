import { useState } from 'react';
import { KEY_PERMISSIONS, MAX_KEY_IPS, SubAccountKeyCreateInput } from '../../../../shared/api/subAccounts.ts';
import type { ManagedKey } from '../../../../shared/incident.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { RequestOutcome } from '../approvals/index.ts';

// A sub-account's keys as the exchange lists them. "Disable key" removes a key at the exchange (any
// operator, one confirmation: containment); "Create key" needs the change quorum, and the new key's secret
// goes from the exchange's answer into the vault for that sub-account's signing: this window only learns
// that the desk now holds a key ("the desk signs with it"), never the secret.

const when = (s: number | null) => (s === null ? '—' : new Date(s * 1000).toISOString().replace('T', ' ').slice(0, 16));

function DisableKey({ uid, k }: { uid: string; k: ManagedKey }) {
  const draft = useDeskMutation('approvalsDraft');
  if (draft.data) return <RequestOutcome requestRef={draft.data.ref} title={draft.data.title} onAgain={() => draft.reset()} />;
  return (
    <>
      <button
        type="button"
        className="danger"
        aria-label={`Disable key ${k.key_masked}`}
        disabled={draft.isPending}
        onClick={() => draft.mutate({ write: { kind: 'sub_account_key_delete', input: { user_id: uid, key: k.key } } })}
      >
        Disable key
      </button>
      {draft.isError && <ErrorPanel error={draft.error} />}
    </>
  );
}

export function CreateKey({ uid, title = 'Create key' }: { uid: string; title?: string }) {
  const draft = useDeskMutation('approvalsDraft');
  const [label, setLabel] = useState('');
  const [groups, setGroups] = useState<Record<string, boolean>>({ spot: true, wallet: true });
  const [readOnly, setReadOnly] = useState(false);
  const [ips, setIps] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (draft.data) return <RequestOutcome requestRef={draft.data.ref} title={draft.data.title} onAgain={() => draft.reset()} />;
  const submit = () => {
    const input = {
      user_id: uid,
      label: label.trim(),
      perms: KEY_PERMISSIONS.filter((g) => groups[g]).map((name) => ({ name, read_only: readOnly })),
      ...(ips.trim() ? { ip_whitelist: ips.split(/[\s,]+/).filter(Boolean) } : {}),
    };
    const checked = SubAccountKeyCreateInput.safeParse(input);
    if (!checked.success) {
      const i = checked.error.issues[0]!;
      setProblem(`${i.path[0] === 'label' ? 'Label' : i.path[0] === 'perms' ? 'Permissions' : 'IP allow-list'}: ${i.message}`);
      return;
    }
    setProblem(null);
    draft.mutate({ write: { kind: 'sub_account_key_create', input: checked.data } });
  };
  return (
    <form
      className="create-key"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3>{title}</h3>
      <p className="small muted">
        Needs the change quorum. The secret goes from the exchange straight into the vault, for this sub-account's signing; it is never
        shown.
      </p>
      <label>
        Key label <input value={label} onChange={(e) => setLabel(e.target.value)} />
      </label>
      <fieldset>
        <legend>Permissions</legend>
        {KEY_PERMISSIONS.map((g) => (
          <label key={g}>
            <input type="checkbox" checked={groups[g] ?? false} onChange={(e) => setGroups({ ...groups, [g]: e.target.checked })} /> {g}
          </label>
        ))}
        <label>
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} /> read only
        </label>
      </fieldset>
      <label>
        IP allow-list (at most {MAX_KEY_IPS} IPv4 addresses) <textarea value={ips} onChange={(e) => setIps(e.target.value)} rows={2} />
      </label>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {draft.isError && <ErrorPanel error={draft.error} />}
      <button type="submit" className="primary" disabled={draft.isPending}>
        Send for signing
      </button>
    </form>
  );
}

export function KeysPanel({ uid }: { uid: string }) {
  const keys = useDeskQuery('subAccountKeys', { user_id: uid });
  return (
    <section className="panel" aria-label="Keys">
      <h2>Keys</h2>
      {keys.isError && <ErrorPanel error={keys.error} onRetry={() => void keys.refetch()} />}
      {keys.data && keys.data.length === 0 && <p className="muted">The exchange lists no key for this sub-account.</p>}
      {keys.data && keys.data.length > 0 && (
        <table className="grid" data-testid="sub-account-keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Permissions</th>
              <th>IP list</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Last seen by the desk</th>
              <th>State</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.key} data-testid={`key-${k.key_masked}`}>
                <td>{k.name ?? '—'}</td>
                <td>
                  {k.key_masked}
                  {k.desk_signs && <span className="badge"> the desk signs with it</span>}
                </td>
                <td>{k.perms.map((p) => (p.read_only ? `${p.name} (read)` : p.name)).join(', ') || 'none'}</td>
                <td>{k.ip_whitelist.length ? k.ip_whitelist.join(', ') : 'any address'}</td>
                <td>{when(k.created_at)}</td>
                <td>{when(k.last_access)}</td>
                <td>{when(Math.floor(k.seen_by_desk_at / 1000))}</td>
                <td>{k.state}</td>
                <td>
                  <DisableKey uid={uid} k={k} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CreateKey uid={uid} />
    </section>
  );
}
