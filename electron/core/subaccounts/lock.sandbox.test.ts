import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalsState, IntentView } from '../../../shared/ipc.ts';
import type { ManagedSubAccount } from '../../../shared/incident.ts';
import { ApiClient } from '../client/client.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { ExchangeError } from '../errors.ts';
import { addOperator, ensureOperator, TEST_OPERATOR } from '../approvals/testkit/governed.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore } from '../testkit/sandboxCore.ts';

// Locking a sub-account from the desk, against a real Sandbox: drafted from the main window's channels,
// signed once in the confirmation window, sent by the write executor. The sub-account's own key is then
// refused at the exchange, and the Sub-accounts list says it is locked. Unlocking waits for the change
// quorum: under a policy whose strictest rule asks two operators, one signature does not send it.

let core: Core & ConfirmCore;
const sb = useSandbox('subaccount-lock', { limits: false });
beforeAll(() => {
  core = sandboxCore(sb);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

async function draft(kind: string, input: Record<string, unknown>): Promise<{ ticket: string; ref: string }> {
  return ok(core.invoke('approvalsDraft', { write: { kind, input } }));
}

const sign = (ticket: string, operator: string, passphrase = TEST_OPERATOR.passphrase) =>
  ok(core.invokeConfirm('confirmSign', { ticket, operator, passphrase }));

async function settled(ref: string): Promise<IntentView> {
  for (let i = 0; i < 400; i++) {
    const list = await ok<{ items: IntentView[] }>(core.invoke('intentsList', {}));
    const v = list.items.find((x) => x.id === ref);
    if (v && !['pending_approval', 'approved', 'in_flight', 'unconfirmed'].includes(v.state)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`write ${ref} did not settle`);
}

const subKeyClient = (i: number) => {
  const k = sb.creds.sub_accounts[i]!;
  return new ApiClient({ baseUrl: sb.creds.base_url, credentials: { key: k.key, secret: k.secret }, limitsOff: true });
};
const readSpot = (c: ApiClient) => c.request({ method: 'GET', path: '/spot/accounts' }, z.array(z.looseObject({})));
const managed = async (uid: string) =>
  (await ok<ManagedSubAccount[]>(core.invoke('subAccountsManaged', {}))).find((a) => a.user_id === uid)!;

describe('Lock sub-account', () => {
  it("needs one confirmation; the sub-account's key is then refused at the exchange and the list shows it locked", async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    await readSpot(subKeyClient(0));
    expect((await managed(uid)).locked).toBe(false);
    const operator = await ensureOperator(core);

    const t = await draft('sub_account_lock', { user_id: uid });
    await sign(t.ticket, operator);
    const v = await settled(t.ref);

    expect(v.state).toBe('done');
    const refused = await readSpot(subKeyClient(0)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ExchangeError);
    expect((refused as ExchangeError).label).toBe('ACCOUNT_LOCKED');
    expect((await managed(uid)).locked).toBe(true);
    // The rebalance leaves it out, saying why.
    const scope = await ok<{ accounts: { account: { owner: string; kind: string }; reachable: boolean; why: string | null }[] }>(
      core.invoke('rebalanceScope', { currency: 'USDT' }),
    );
    const its = scope.accounts.filter((a) => a.account.owner === uid && a.account.kind !== 'cross_margin');
    expect(its.length).toBeGreaterThan(0);
    for (const a of its) expect(a).toMatchObject({ reachable: false, why: expect.stringMatching(/locked.*SUB_ACCOUNT_LOCKED/) });
    expect(scope.accounts.find((a) => a.account.owner === sb.creds.sub_accounts[1]!.uid && a.account.kind === 'spot')).toMatchObject({
      reachable: true,
    });
  });

  it('is journaled with the exact wire request and never sent twice when drafted again (idempotent at the exchange)', async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const operator = await ensureOperator(core);
    const t = await draft('sub_account_lock', { user_id: uid });
    await sign(t.ticket, operator);
    const v = await settled(t.ref);
    expect(v).toMatchObject({ kind: 'sub_account_lock', state: 'done', attempts: 1, body: { user_id: uid } });
    expect((await managed(uid)).locked).toBe(true);
  });
});

describe('Unlock', () => {
  it('waits for the change quorum: one signature of two does not send it, the second does', async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const alice = await ensureOperator(core);
    const bob = await addOperator(core, 'Bob', 'bob passphrase for tests');
    const policy = {
      rules: [
        { id: 'cancels-free', match: { kinds: ['spot_cancel', 'spot_cancel_all'] }, action: 'allow' },
        { id: 'two-for-everything', match: {}, action: 'require', approvals: 2, drafter_may_approve: true },
      ],
    };
    const p = await ok<{ ticket: string }>(core.invoke('approvalsProposePolicy', { policy }));
    await sign(p.ticket, alice);
    const st = await ok<z.output<typeof ApprovalsState>>(core.invoke('approvalsState', {}));
    expect(st.change_quorum).toBe(2);

    const t = await draft('sub_account_unlock', { user_id: uid });
    await sign(t.ticket, alice);
    await new Promise((r) => setTimeout(r, 500));
    const waiting = (await ok<z.output<typeof ApprovalsState>>(core.invoke('approvalsState', {}))).items.find((i) => i.ref === t.ref)!;
    expect(waiting).toMatchObject({ state: 'waiting', needed: 2, approved_by: ['Test operator'], summary: `unlock sub-account ${uid}` });
    expect((await managed(uid)).locked).toBe(true);

    const d = await ok<{ ticket: string }>(core.invoke('approvalsDecide', { ref: t.ref, action: 'approve' }));
    await sign(d.ticket, bob, 'bob passphrase for tests');
    expect((await settled(t.ref)).state).toBe('done');
    expect((await managed(uid)).locked).toBe(false);
    await readSpot(subKeyClient(0));

    // Under the same policy a lock is still containment: one operator, one confirmation.
    const other = sb.creds.sub_accounts[1]!.uid;
    const lock = await draft('sub_account_lock', { user_id: other });
    await sign(lock.ticket, bob, 'bob passphrase for tests');
    expect((await settled(lock.ref)).state).toBe('done');
    expect((await managed(other)).locked).toBe(true);
  });
});

describe('Lock sub-account on a frozen desk', () => {
  it('still goes with one confirmation, like the freeze itself, while a transfer is not even drafted', async () => {
    const uid = sb.creds.sub_accounts[2]!.uid;
    const alice = await ensureOperator(core);
    const f = await ok<{ ticket: string }>(core.invoke('approvalsFreeze', { reason: 'a leaked sub-account key' }));
    await sign(f.ticket, alice);
    expect((await ok<z.output<typeof ApprovalsState>>(core.invoke('approvalsState', {}))).frozen).not.toBeNull();

    const refused = await core.invoke('approvalsDraft', {
      write: { kind: 'main_sub_transfer', input: { sub_account: uid, currency: 'USDT', amount: '1', direction: 'from' } },
    });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/frozen/) } });

    const t = await draft('sub_account_lock', { user_id: uid });
    await sign(t.ticket, alice);
    expect((await settled(t.ref)).state).toBe('done');
    expect((await managed(uid)).locked).toBe(true);
  });
});
