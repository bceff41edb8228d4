import { useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { TransferForm } from './TransferForm.tsx';
import { FORM_NAMES, FORMS, type TransferFormKind, type Values } from './transferWrite.ts';

/**
 * "New transfer" on the Transfers page: the kind of move, then its form. A move within a sub-account is
 * signed by that sub-account's key, so it is offered only for the sub-accounts whose key the profile holds.
 */
export function NewTransfer({ initial }: { initial?: { form: TransferFormKind; values: Partial<Values> } }) {
  const profile = useDeskQuery('profileCurrent', {});
  const state = useDeskQuery('approvalsState', {});
  const [form, setForm] = useState<TransferFormKind>(initial?.form ?? 'own');
  if (state.isError) return <ErrorPanel error={state.error} />;
  if (profile.isError) return <ErrorPanel error={profile.error} />;
  if (!state.data || profile.data === undefined) return <p role="status">Loading…</p>;
  // A key the exchange proved unable to write to the wallet group (POST /wallet/transfers) is not offered.
  const keys = profile.data?.sub_keys ?? [];
  const subKeys = keys.filter((k) => !k.permissions || k.permissions.wallet === 'write').map((k) => k.uid);
  const unable = keys.filter((k) => k.permissions && k.permissions.wallet !== 'write');
  const offered = FORMS.filter((f) => f !== 'sub_own' || subKeys.length > 0);
  const shown = offered.includes(form) ? form : 'own';
  if (state.data.blocked)
    return (
      <p className="error-panel" role="alert" data-testid="cannot-send">
        {state.data.blocked}
      </p>
    );
  return (
    <section aria-label="New transfer">
      {state.data.needs_first_operator && <p className="card">No operator yet: the first is created in the confirmation window.</p>}
      <div className="segmented" role="group" aria-label="Kind of transfer">
        {offered.map((f) => (
          <button key={f} type="button" aria-pressed={f === shown} onClick={() => setForm(f)}>
            {FORM_NAMES[f]}
          </button>
        ))}
      </div>
      {shown === 'sub_own' && unable.length > 0 && (
        <p className="small muted" data-testid="unable-keys">
          Not offered:{' '}
          {unable
            .map(
              (k) =>
                `sub-account ${k.uid} (the exchange refused its key wallet writes; it may ${k.permissions!.wallet === 'read' ? 'only read' : 'not use'} the wallet)`,
            )
            .join(', ')}
          .
        </p>
      )}
      <TransferForm key={shown} form={shown} subKeys={subKeys} {...(initial?.form === shown ? { initial: initial.values } : {})} />
    </section>
  );
}
