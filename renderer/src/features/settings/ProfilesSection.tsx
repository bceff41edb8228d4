import { useRef, useState } from 'react';
import { PERMISSION_GROUP_NAMES, PERMISSION_GROUPS } from '../../../../shared/api/environments.ts';
import type { ProfileSummary } from '../../../../shared/ipc.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { ProfileForm } from './ProfileForm.tsx';
import { passphraseNeeded } from './vaultNeeds.ts';

function permissionText(p: ProfileSummary['permissions']): string {
  const parts = PERMISSION_GROUPS.filter((g) => p[g] !== 'none').map(
    (g) => `${PERMISSION_GROUP_NAMES[g]} ${p[g] === 'write' ? 'rw' : 'r'}`,
  );
  return [...parts, ...(p.unified ? ['unified'] : [])].join(' · ') || 'no permissions';
}

/** What the exchange has proved each sub-account key cannot do; nothing proved yet reads as such. */
function subKeyText(k: ProfileSummary['sub_keys'][number]): string {
  if (!k.permissions) return `sub-account ${k.uid}: no refusal seen yet`;
  return `sub-account ${k.uid}: ${permissionText(k.permissions)} (learned from the exchange's refusals)`;
}

export function ProfilesSection() {
  const list = useDeskQuery('profilesList', {});
  const vault = useDeskQuery('vaultStatus', {});
  const select = useDeskMutation('profileSelect');
  const remove = useDeskMutation('profileRemove');
  const [editing, setEditing] = useState<ProfileSummary | 'new' | null>(null);
  const [confirmRemove, setConfirmRemove] = useState<ProfileSummary | null>(null);
  const needsPassphrase = passphraseNeeded(vault.data);
  const addButton = useRef<HTMLButtonElement>(null);
  const removed = useRef(false);

  if (list.isError) return <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <p role="status">Loading profiles…</p>;
  return (
    <div className="card">
      <h2>Profiles</h2>
      <table className="table" data-testid="profiles">
        <thead>
          <tr>
            <th>Name</th>
            <th>Environment</th>
            <th>Key</th>
            <th>Permissions</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data.profiles.map((p) => (
            <tr key={p.id} data-profile={p.name} tabIndex={-1} aria-label={`Profile ${p.name}`}>
              <td>
                {p.name}
                {p.id === list.data.active_id && <span className="badge">active</span>}
              </td>
              <td className="wrap">
                <span className={`env env-${p.environment}`}>{p.environment}</span> <span className="muted small">{p.base_url}</span>
              </td>
              <td className="mono">
                {p.auditor ? <span className="muted">no key (auditor)</span> : p.key_masked}
                {p.sub_keys.length > 0 && <span className="muted small"> +{p.sub_keys.length} sub-account keys</span>}
              </td>
              <td className="small">
                {permissionText(p.permissions)}
                {p.sub_keys.length > 0 && (
                  <ul className="plain muted" aria-label={`Sub-account keys of ${p.name}`}>
                    {p.sub_keys.map((k) => (
                      <li key={k.uid}>{subKeyText(k)}</li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="row-actions">
                {p.id !== list.data.active_id && (
                  <button
                    type="button"
                    onClick={(e) => {
                      // "Use" goes away once the profile is active: focus stays on its row.
                      e.currentTarget.closest('tr')?.focus();
                      select.mutate({ id: p.id });
                    }}
                  >
                    Use
                  </button>
                )}
                {!p.built_in && (
                  <button type="button" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
                    Edit
                  </button>
                )}
                {!p.built_in && (
                  <button type="button" className="danger" onClick={() => setConfirmRemove(p)} aria-label={`Remove ${p.name}`}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {select.isError && <ErrorPanel error={select.error} />}
      {remove.isError && <ErrorPanel error={remove.error} />}
      {confirmRemove && (
        <Dialog
          role="alertdialog"
          label="Confirm removal"
          onClose={() => setConfirmRemove(null)}
          returnFocus={() => (removed.current ? addButton.current : null)}
        >
          <p>
            Remove the profile <strong>{confirmRemove.name}</strong> and its stored key? The key stays valid at the exchange; revoke it
            there if it is no longer needed.
          </p>
          <div className="actions">
            <button
              type="button"
              className="danger"
              onClick={() => {
                removed.current = false;
                remove.mutate(
                  { id: confirmRemove.id },
                  {
                    onSuccess: () => {
                      removed.current = true;
                    },
                    onSettled: () => setConfirmRemove(null),
                  },
                );
              }}
            >
              Remove profile
            </button>
            <button type="button" autoFocus onClick={() => setConfirmRemove(null)}>
              Keep it
            </button>
          </div>
        </Dialog>
      )}
      {needsPassphrase && (
        <p className="notice" data-testid="passphrase-needed">
          This desk has no system keychain here, so a live key can only be stored under a passphrase.{' '}
          <button
            type="button"
            className="link"
            onClick={() => document.querySelector<HTMLInputElement>('[data-field="new-passphrase"]')?.focus()}
          >
            Set a passphrase
          </button>{' '}
          below first; then add the profile.
        </p>
      )}
      {list.data.profiles.every((p) => p.environment === 'sandbox') && (
        <p className="notice" data-testid="live-key-howto">
          Only the Sandbox is set up: its balances are play money. To work with an exchange account, create an API key on the exchange (with
          only the permissions this desk needs: reading the wallet, and withdrawals or spot trading if it is to move money), then{' '}
          <strong>Add a profile</strong> with the environment <em>Live</em>, the key and its secret. The key is checked with one read before
          it is stored, sealed on this computer.
        </p>
      )}
      <button type="button" ref={addButton} className="primary" disabled={needsPassphrase} onClick={() => setEditing('new')}>
        Add a profile
      </button>
      {editing !== null && (
        <Dialog label={editing === 'new' ? 'New profile' : `Edit profile ${editing.name}`} onClose={() => setEditing(null)}>
          <ProfileForm existing={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
        </Dialog>
      )}
    </div>
  );
}
