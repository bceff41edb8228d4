import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Policy } from '../../../shared/api/policy.ts';
import { listOf, Withdrawal } from '../../../shared/api/records.ts';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { ApprovalItem, ApprovalsState, IntentView } from '../../../shared/ipc.ts';
import { dec, Dec } from '../../../shared/money.ts';
import { ApiClient } from '../client/client.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { Journal } from '../journal/journal.ts';
import { fileJournalKey } from '../journal/mac.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore } from '../testkit/sandboxCore.ts';

// One operator trying to do alone what the policy gives to two, and someone who can write the Sandbox
// profile's data folder, against the real Sandbox; the money is counted by the test's own client from
// the exchange's records of the desk's withdraw_order_ids.

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const PASS = { Alice: 'alice passphrase 1', Bob: 'bob passphrase 22', Carol: 'carol passphrase 3' };
const HOUR = 3_600_000;

const sb = useSandbox('quorum-sandbox', { limits: false, perTest: true });
let exchange: ApiClient;

beforeEach(() => {
  const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
  exchange = new ApiClient({ baseUrl, credentials, limitsOff: true });
});

type Desk = Core & ConfirmCore;

function openCore(dataDir: string, coolingOffMs: number): Desk {
  return sandboxCore(sb, { dataDir, coolingOffMs });
}

/** What the exchange holds under these withdraw_order_ids: how many, and the USDT they moved. */
async function leftAtExchange(ids: readonly string[]): Promise<{ count: number; usdt: string }> {
  const now = Math.floor(Date.now() / 1000);
  const all = await exchange.request(
    {
      method: 'GET',
      path: '/wallet/withdrawals',
      query: [
        ['from', String(now - 86_400)],
        ['to', String(now + 60)],
        ['limit', '1000'],
      ],
    },
    listOf(Withdrawal),
  );
  const mine = all.filter((w) => w.withdraw_order_id !== undefined && ids.includes(w.withdraw_order_id));
  return { count: mine.length, usdt: mine.reduce((s, w) => s.plus(dec(w.amount)), new Dec(0)).toFixed() };
}

/** The desk with Alice, Bob and Carol in force (a cooling-off of 0) and the Sandbox's TRX address in its book. */
async function threeOperators(core: Desk): Promise<Record<keyof typeof PASS, string>> {
  const alice = (await ok<{ id: string }>(core.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice }))).id;
  const add = async (name: 'Bob' | 'Carol'): Promise<string> =>
    (
      await ok<{ id: string }>(
        core.invokeConfirm('confirmProposeOperator', { name, new_passphrase: PASS[name], by: alice, passphrase: PASS.Alice }),
      )
    ).id;
  const ids = { Alice: alice, Bob: await add('Bob'), Carol: await add('Carol') };
  // An address-book entry is an operator's signed act, like the rest.
  const entry = await ok<{ ticket: string }>(core.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address: TRX }));
  await ok(core.invokeConfirm('confirmSign', { ticket: entry.ticket, operator: alice, passphrase: PASS.Alice }));
  return ids;
}

async function sign(core: Desk, ticket: string, who: keyof typeof PASS, ids: Record<keyof typeof PASS, string>): Promise<void> {
  await ok(core.invokeConfirm('confirmSign', { ticket, operator: ids[who], passphrase: PASS[who] }));
}

/** A withdrawal ticket opened in the main window (not signed yet), with the id it will be sent under. */
async function ticketFor(core: Desk, amount: string): Promise<{ ticket: string; ref: string }> {
  const t = await ok<{ ticket: string }>(
    core.invoke('approvalsDraft', { write: { kind: 'withdrawal', input: { currency: 'USDT', amount, address: TRX, chain: 'TRX' } } }),
  );
  const ref = (await ok<ConfirmState>(core.invokeConfirm('confirmState', {}))).tickets.find((x) => x.id === t.ticket)!.ref;
  return { ticket: t.ticket, ref };
}

async function item(core: Desk, ref: string): Promise<ApprovalItem | undefined> {
  return (await ok<ApprovalsState>(core.invoke('approvalsState', {}))).items.find((i) => i.ref === ref);
}

async function putInForce(core: Desk, policy: Policy, ids: Record<keyof typeof PASS, string>): Promise<void> {
  const t = await ok<{ ticket: string }>(core.invoke('approvalsProposePolicy', { policy }));
  await sign(core, t.ticket, 'Alice', ids);
  await expect.poll(async () => (await ok<ApprovalsState>(core.invoke('approvalsState', {}))).policy.rules).toEqual(policy.rules);
}

describe('the quorum is the policy in force when money leaves', () => {
  it('three 4,000 USDT tickets racing a 10,000 a day rule: one operator gets two out; the third leaves with a second approval', async () => {
    const core = openCore(join(sb.dir, 'race'), 0);
    try {
      const ids = await threeOperators(core);
      await putInForce(
        core,
        {
          rules: [
            {
              id: 'ten-k-a-day',
              match: { kinds: ['withdrawal'], currencies: ['USDT'], velocity_24h_at_least: '10000' },
              action: 'require',
              approvals: 2,
              drafter_may_approve: true,
            },
            { id: 'one', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
          ],
        },
        ids,
      );
      // All three opened before any is signed: each review sees no outflow and says "one".
      const tickets = [await ticketFor(core, '4000'), await ticketFor(core, '4000'), await ticketFor(core, '4000')];
      const refs = tickets.map((t) => t.ref);
      for (const t of tickets) await sign(core, t.ticket, 'Alice', ids);

      await expect.poll(async () => (await leftAtExchange(refs)).usdt, { timeout: 30_000 }).toBe('8000');
      const third = await item(core, refs[2]!);
      expect(third).toMatchObject({ state: 'waiting', needed: 2, verdict: { rule: 'ten-k-a-day' } });
      expect((await leftAtExchange(refs)).count).toBe(2);

      const approve = await ok<{ ticket: string }>(core.invoke('approvalsDecide', { ref: refs[2]!, action: 'approve' }));
      await sign(core, approve.ticket, 'Bob', ids);
      await expect.poll(async () => leftAtExchange(refs), { timeout: 30_000 }).toEqual({ count: 3, usdt: '12000' });
    } finally {
      await core.close();
    }
  }, 240_000);

  it('a policy tightened under an open ticket: the drafter alone no longer sends it; two others do', async () => {
    const core = openCore(join(sb.dir, 'stale'), 0);
    try {
      const ids = await threeOperators(core);
      // Opened under the default policy (one signature, the drafter's own)...
      const t = await ticketFor(core, '5000');
      // ...then "1,000 or more needs 2 others" is put in force before the drafter signs it.
      await putInForce(
        core,
        {
          rules: [
            { id: 'thousand-two-others', match: { kinds: ['withdrawal'], amount_at_least: '1000' }, action: 'require', approvals: 2 },
            { id: 'one', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
          ],
        },
        ids,
      );
      await sign(core, t.ticket, 'Alice', ids);
      expect(await item(core, t.ref)).toMatchObject({ state: 'waiting', needed: 2, verdict: { rule: 'thousand-two-others' } });
      await sign(
        core,
        (await ok<{ ticket: string }>(core.invoke('approvalsDecide', { ref: t.ref, action: 'approve' }))).ticket,
        'Bob',
        ids,
      );
      expect(await item(core, t.ref)).toMatchObject({ state: 'waiting', approved_by: ['Bob'] });
      expect(await leftAtExchange([t.ref])).toEqual({ count: 0, usdt: '0' });
      await sign(
        core,
        (await ok<{ ticket: string }>(core.invoke('approvalsDecide', { ref: t.ref, action: 'approve' }))).ticket,
        'Carol',
        ids,
      );
      await expect.poll(async () => leftAtExchange([t.ref]), { timeout: 30_000 }).toEqual({ count: 1, usdt: '5000' });
    } finally {
      await core.close();
    }
  }, 240_000);
});

describe('a governed write leaves only with verified signatures', () => {
  it('an intent and approval appended to the Sandbox profile journal, MACed with the readable key file: nothing leaves', async () => {
    const dir = join(sb.dir, 'forged');
    let core = openCore(dir, 0);
    await ok(core.invoke('approvalsState', {}));
    await core.close();

    // Whoever can read journals/desk-journal.key writes a journal that verifies.
    const journal = Journal.open(join(dir, 'journals', 'sandbox.jsonl'), {
      key: fileJournalKey(join(dir, 'journals', 'desk-journal.key')),
    });
    const body = { withdraw_order_id: 'forged-5000', currency: 'USDT', amount: '5000', address: TRX, chain: 'TRX' };
    journal.append({ type: 'intent', intent: 'forged-5000', kind: 'withdrawal', client_id: 'forged-5000', body });
    journal.append({ type: 'approval', intent: 'forged-5000', by: 'operator' });
    journal.close();

    core = openCore(dir, 0);
    try {
      const state = async (): Promise<IntentView | undefined> =>
        (await ok<{ items: IntentView[] }>(core.invoke('intentsList', {}))).items.find((v) => v.id === 'forged-5000');
      await expect.poll(async () => (await state())?.state, { timeout: 30_000 }).toBe('cancelled');
      expect((await state())?.reason).toMatch(/not sent: no operators' approval of forged-5000 is on record/);
      expect(await leftAtExchange(['forged-5000'])).toEqual({ count: 0, usdt: '0' });
    } finally {
      await core.close();
    }
  }, 90_000);
});

describe('the cooling-off is the desk’s', () => {
  it('restarting with TREASURY_DESK_COOLING_OFF_HOURS=0 does not lift a pending change', async () => {
    const dir = join(sb.dir, 'cooling');
    let core = openCore(dir, 24 * HOUR);
    const alice = (await ok<{ id: string }>(core.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice })))
      .id;
    const t = await ok<{ ticket: string }>(
      core.invoke('approvalsProposePolicy', { policy: { rules: [{ id: 'anything-goes', match: {}, action: 'allow' }] } }),
    );
    await ok(core.invokeConfirm('confirmSign', { ticket: t.ticket, operator: alice, passphrase: PASS.Alice }));
    const pending = (await ok<ApprovalsState>(core.invoke('approvalsState', {}))).items.find((i) => i.what === 'policy')!;
    expect(pending.state).toBe('cooling_off');
    await core.close();

    core = openCore(dir, 0);
    try {
      const s = await ok<ApprovalsState>(core.invoke('approvalsState', {}));
      expect(s.items.find((i) => i.ref === pending.ref)).toMatchObject({ state: 'cooling_off', effective_at: pending.effective_at });
      expect(s.policy.ref).toBeNull();
      // The variable still sets the Sandbox's wait for new changes, and the page says where it comes from.
      expect(s).toMatchObject({ cooling_off_hours: 0, cooling_off_variable: true });
    } finally {
      await core.close();
    }
  }, 60_000);
});
