import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SpotOrder } from '../../../shared/api/orders.ts';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { ApprovalsState, IntentView, Review } from '../../../shared/ipc.ts';
import { ApiClient } from '../client/client.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { readSandboxCredentials } from '../profiles/sandbox.ts';
import { ensureOperator, TEST_OPERATOR } from '../approvals/testkit/governed.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore } from '../testkit/sandboxCore.ts';

// The policy judges an order by its notional: a rule can hold orders above a value in USDT for more
// signatures, while smaller ones and cancels go as the rest of the policy says. Real core, real Sandbox.
// The desk has three operators (added before the policy, while one signature changed the desk), so that a
// held order can be seen waiting for its second approval and going out with it.

let core: Core & ConfirmCore;
let operator: string;
const OTHERS = [
  { name: 'Second operator', passphrase: 'second operator passphrase', id: '' },
  { name: 'Third operator', passphrase: 'third operator passphrase', id: '' },
];

const order = (amount: string, price: string) => ({
  write: {
    kind: 'spot_order',
    input: { currency_pair: 'BTC_USDT', side: 'buy', type: 'limit', account: 'spot', amount, price, time_in_force: 'gtc' },
  },
});

const sb = useSandbox('orders-policy', { limits: false });
beforeAll(async () => {
  core = sandboxCore(sb);
  operator = await ensureOperator(core);
  for (const o of OTHERS) {
    o.id = (
      await ok<{ id: string }>(
        core.invokeConfirm('confirmProposeOperator', {
          name: o.name,
          new_passphrase: o.passphrase,
          by: operator,
          passphrase: TEST_OPERATOR.passphrase,
        }),
      )
    ).id;
  }
  for (
    let i = 0;
    i < 100 && (await ok<ApprovalsState>(core.invoke('approvalsState', {}))).operators.filter((o) => o.state === 'in_force').length !== 3;
    i++
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const policy = {
    rules: [
      { id: 'cancels-free', match: { kinds: ['spot_cancel', 'spot_cancel_all'] }, action: 'allow' },
      { id: 'big-orders', match: { kinds: ['spot_order'], usdt_at_least: '10000' }, action: 'require', approvals: 2 },
      { id: 'confirm-every-write', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
    ],
  };
  const t = await ok<{ ticket: string }>(core.invoke('approvalsProposePolicy', { policy }));
  await ok(core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
  for (
    let i = 0;
    i < 100 && (await ok<{ policy: { rules: unknown[] } }>(core.invoke('approvalsState', {}))).policy.rules.length !== 3;
    i++
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
}, 60_000);
afterAll(async () => {
  await core?.close();
});

describe('orders under the policy', () => {
  it('holds an order whose notional reaches the threshold for two signatures, and lets a smaller one go with one', async () => {
    const big = await ok<Review>(core.invoke('approvalsReview', order('0.2', '60000')));
    expect(big.verdict).toMatchObject({ decision: 'require', rule: 'big-orders', approvals: 2 });
    expect(big.verdict.rules[1]!.why.join('; ')).toMatch(/worth 12,000(\.00)? USDT, at least 10,000 USDT/);
    const small = await ok<Review>(core.invoke('approvalsReview', order('0.1', '60000')));
    expect(small.verdict).toMatchObject({ decision: 'require', rule: 'confirm-every-write', approvals: 1 });
  });

  it("shows the order's text whole in the review, its id said to come when drafted (never a cut placeholder)", async () => {
    const labelled = { write: { ...order('0.1', '60000').write, input: { ...order('0.1', '60000').write.input, label: 'walk1' } } };
    expect((await ok<Review>(core.invoke('approvalsReview', labelled))).body.text).toBe('t-walk1.(set when drafted)');
    expect((await ok<Review>(core.invoke('approvalsReview', order('0.1', '60000')))).body.text).toBe('t-(set when drafted)');
  });

  it('lets a cancel through without a signature, and refuses to draft for a sub-account whose key the profile lacks', async () => {
    const cancel = await ok<Review>(
      core.invoke('approvalsReview', { write: { kind: 'spot_cancel', input: { currency_pair: 'BTC_USDT', order_id: '1' } } }),
    );
    expect(cancel.verdict).toMatchObject({ decision: 'allow', rule: 'cancels-free' });
    const noKey = await core.invoke('approvalsDraft', {
      write: { ...order('0.001', '60000').write, input: { ...order('0.001', '60000').write.input, sub_uid: '10000110' } },
    });
    expect(noKey).toMatchObject({ ok: false, error: { message: expect.stringMatching(/holds no key for sub-account 10000110/) } });
    expect((await ok<ConfirmState>(core.invokeConfirm('confirmState', {}))).tickets).toEqual([]);
  });

  it('sends an order held for two signatures only once two operators other than its drafter approved it', async () => {
    const creds = readSandboxCredentials(sb.credentialsPath);
    const mine = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main, limitsOff: true });
    const atSandbox = async (text: string): Promise<number> => {
      let n = 0;
      for (const status of ['open', 'finished']) {
        const rows = await mine.request(
          {
            method: 'GET',
            path: '/spot/orders',
            query: [
              ['currency_pair', 'BTC_USDT'],
              ['status', status],
              ['limit', '100'],
            ],
          },
          z.array(SpotOrder),
        );
        n += rows.filter((o) => o.text === text).length;
      }
      return n;
    };
    const sign = (ticket: string, who: { id: string; passphrase: string }) =>
      ok(core.invokeConfirm('confirmSign', { ticket, operator: who.id, passphrase: who.passphrase }));
    const item = async (ref: string) => (await ok<ApprovalsState>(core.invoke('approvalsState', {}))).items.find((x) => x.ref === ref)!;
    const intent = async (ref: string) =>
      (await ok<{ items: IntentView[] }>(core.invoke('intentsList', {}))).items.find((x) => x.id === ref);
    const settle = () => new Promise((r) => setTimeout(r, 300));

    const draft = await ok<{ ticket: string }>(core.invoke('approvalsDraft', order('0.2', '60000')));
    const ref = (await ok<ConfirmState>(core.invokeConfirm('confirmState', {}))).tickets.find((t) => t.id === draft.ticket)!.ref;
    const text = `t-${ref}`;
    await sign(draft.ticket, { id: operator, passphrase: TEST_OPERATOR.passphrase });
    await settle();
    // The drafter's signature does not count under this rule: nothing approved, nothing journaled or sent.
    expect(await item(ref)).toMatchObject({ state: 'waiting', needed: 2, approved_by: [] });
    expect(await intent(ref)).toBeUndefined();

    const second = await ok<{ ticket: string }>(core.invoke('approvalsDecide', { ref, action: 'approve' }));
    await sign(second.ticket, OTHERS[0]!);
    await settle();
    expect(await item(ref)).toMatchObject({ state: 'waiting', approved_by: ['Second operator'] });
    expect(await intent(ref)).toBeUndefined();
    expect(await atSandbox(text)).toBe(0);

    const third = await ok<{ ticket: string }>(core.invoke('approvalsDecide', { ref, action: 'approve' }));
    await sign(third.ticket, OTHERS[1]!);
    await expect.poll(async () => (await intent(ref))?.state, { timeout: 15_000, interval: 50 }).toBe('done');
    expect((await intent(ref))!.body.text).toBe(text);
    expect(await atSandbox(text)).toBe(1);
    expect((await item(ref)).approved_by.sort()).toEqual(['Second operator', 'Third operator']);
  }, 60_000);
});
