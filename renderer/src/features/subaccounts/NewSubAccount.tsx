import { useState } from 'react';
import { SubAccountCreateInput } from '../../../../shared/api/subAccounts.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { RequestOutcome } from '../approvals/index.ts';
import { CreateKey } from './KeysPanel.tsx';

// "New sub-account": the change quorum, like any new access. Its login name is the create's client-side
// id: after an unclear answer the desk looks it up before anything is sent again. Its first key is
// optional and its own request (the sub-account's id is known only once the exchange made it).

function FirstKey({ requestRef }: { requestRef: string }) {
  const status = useDeskQuery('requestStatus', { ref: requestRef });
  const uid = status.data?.intent?.state === 'done' ? status.data.intent.exchange_id : undefined;
  if (!uid) return null;
  return <CreateKey uid={uid} title={`Its first key (optional): sub-account ${uid}`} />;
}

export function NewSubAccount() {
  const [open, setOpen] = useState(false);
  const [login, setLogin] = useState('');
  const [remark, setRemark] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const draft = useDeskMutation('approvalsDraft');
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        New sub-account
      </button>
    );
  if (draft.data)
    return (
      <section className="panel" aria-label="New sub-account">
        <RequestOutcome requestRef={draft.data.ref} title={draft.data.title} />
        <FirstKey requestRef={draft.data.ref} />
      </section>
    );
  const submit = () => {
    const checked = SubAccountCreateInput.safeParse({ login_name: login.trim(), ...(remark.trim() ? { remark: remark.trim() } : {}) });
    if (!checked.success) {
      setProblem(checked.error.issues[0]!.message);
      return;
    }
    setProblem(null);
    draft.mutate({ write: { kind: 'sub_account_create', input: checked.data } });
  };
  return (
    <form
      className="panel"
      aria-label="New sub-account"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <p className="small muted">Needs the change quorum. The login name finds it at the exchange before anything is sent again.</p>
      <label>
        Login name <input value={login} onChange={(e) => setLogin(e.target.value)} />
      </label>
      <label>
        Remark <input value={remark} onChange={(e) => setRemark(e.target.value)} />
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
