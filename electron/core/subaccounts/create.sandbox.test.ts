import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntentView } from '../../../shared/ipc.ts';
import type { ManagedSubAccount } from '../../../shared/incident.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { ensureOperator, TEST_OPERATOR } from '../approvals/testkit/governed.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore } from '../testkit/sandboxCore.ts';

// Creating a sub-account from the desk carries a client-side login name. The Sandbox commits the create
// and then drops the connection without an answer: the desk must not send it again blind. It looks the
// name up (GET /sub_accounts), finds the sub-account it made, and records it, so exactly one exists.

let core: Core & ConfirmCore;
const sb = useSandbox('subaccount-create', { limits: false });
beforeAll(() => {
  core = sandboxCore(sb);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

describe('Create a sub-account', () => {
  it('after an answer lost once the create was applied, looks the login name up and never sends it again', async () => {
    await adminCall(sb.creds, 'POST', '/faults', {
      kind: 'timeout_after_commit',
      path: '/sub_accounts',
      method: 'POST',
      times: 1,
      hang_ms: 300,
    });
    const operator = await ensureOperator(core);
    const t = await ok<{ ticket: string; ref: string }>(
      core.invoke('approvalsDraft', {
        write: { kind: 'sub_account_create', input: { login_name: 'incident_ops', remark: 'made by the desk' } },
      }),
    );
    await ok(core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    let v: IntentView | undefined;
    for (let i = 0; i < 600 && !(v && ['done', 'refused', 'needs_attention'].includes(v.state)); i++) {
      await new Promise((r) => setTimeout(r, 100));
      v = (await ok<{ items: IntentView[] }>(core.invoke('intentsList', {}))).items.find((x) => x.id === t.ref);
    }
    expect(v).toMatchObject({ kind: 'sub_account_create', state: 'done', attempts: 1, client_id: 'incident_ops' });
    const mine = (await ok<ManagedSubAccount[]>(core.invoke('subAccountsManaged', {}))).filter((a) => a.login_name === 'incident_ops');
    expect(mine).toHaveLength(1);
    expect(v!.exchange_id).toBe(mine[0]!.user_id);
    expect(mine[0]).toMatchObject({ remark: 'made by the desk', locked: false, desk_key: null });
  }, 90_000);
});
