import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Policy } from '../../../shared/api/policy.ts';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { PolicyReplay } from '../../../shared/api/replay.ts';
import { listOf, Withdrawal } from '../../../shared/api/records.ts';
import { sendGoverned } from '../approvals/testkit/governed.ts';
import { ApiClient } from '../client/client.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// docs/approvals.md §Try before force: a proposed policy replayed against the last 30 days of the profile's
// requests and of the withdrawals the Sandbox seeded (which this desk never sent). The counts are checked
// against the test's own reading of the same records at the exchange.

const BIG: Policy = {
  rules: [
    { id: 'big-withdrawals', match: { kinds: ['withdrawal'], amount_at_least: '100' }, action: 'block' },
    { id: 'the-rest', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
  ],
};

let core: Core & ConfirmCore;
const sb = useSandbox('policy-replay', { limits: false });
beforeAll(async () => {
  core = openDesk({ home: join(sb.dir, 'home'), sandboxCredentialsPath: sb.credentialsPath, log: () => {}, coolingOffMs: 0 });
  expect((await core.invoke('historySync', {})).ok).toBe(true);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

/** The exchange's withdrawals of the last 30 days, read by the test's own signer. */
async function atExchange(): Promise<{ amount: string; withdraw_order_id?: string | null }[]> {
  const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
  const c = new ApiClient({ baseUrl, credentials, limitsOff: true });
  const now = Math.floor(Date.now() / 1000);
  const out: { amount: string; withdraw_order_id?: string | null }[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await c.request(
      {
        method: 'GET',
        path: '/wallet/withdrawals',
        query: [
          ['from', String(now - 30 * 86_400 + 60)],
          ['to', String(now + 60)],
          ['limit', '1000'],
          ['offset', String(offset)],
        ],
      },
      listOf(Withdrawal),
    );
    out.push(...page);
    if (page.length < 1000) return out;
  }
}

describe('policy replay', () => {
  it('counts per rule what the proposal would have done with the last 30 days, and which verdicts change', async () => {
    // One request of the desk's own, signed with its facts: 12 USDT to a verified saved address.
    const mine = await sendGoverned(core, {
      kind: 'main_sub_transfer',
      input: { sub_account: sb.creds.sub_accounts[0]!.uid, currency: 'USDT', amount: '12', direction: 'to' },
    });
    const r = await core.invoke('policyReplay', { policy: BIG });
    expect(r.ok).toBe(true);
    const replay = (r as { data: PolicyReplay }).data;

    const theirs = (await atExchange()).filter((w) => w.withdraw_order_id !== mine.id);
    expect(replay.counted).toEqual({ desk: 1, exchange: theirs.length });
    expect(theirs.length).toBeGreaterThan(0);
    const big = theirs.filter((w) => Number(w.amount) >= 100).length;
    const byRule = Object.fromEntries(replay.rules.map((x) => [x.rule ?? '(none)', x]));
    expect(byRule['big-withdrawals']).toEqual({ rule: 'big-withdrawals', allowed: 0, held: 0, blocked: big });
    // Every other withdrawal, and the desk's own transfer, is held for one approval.
    expect(byRule['the-rest']).toEqual({ rule: 'the-rest', allowed: 0, held: theirs.length - big + 1, blocked: 0 });
    expect(byRule['(none)']).toEqual({ rule: null, allowed: 0, held: 0, blocked: 0 });
    // Against the default policy (unknown destinations blocked, the rest one approval), a changed verdict
    // is a big withdrawal that was held and is now blocked, or a small one to an unknown address now held.
    for (const c of replay.changed) expect(c.before.decision).not.toBe(c.after.decision);
    expect(replay.changed_total).toBeGreaterThan(0);
    expect(replay.changed.every((c) => c.source === 'exchange')).toBe(true);
  }, 60_000);

  it('puts the replay beside the policy ticket in the confirmation window, before anyone signs', async () => {
    const t = await core.invoke('approvalsProposePolicy', { policy: BIG });
    expect(t.ok).toBe(true);
    const st = await core.invokeConfirm('confirmState', {});
    const ticket = st.ok
      ? (st.data as ConfirmState).tickets.find((x) => x.id === (t as { data: { ticket: string } }).data.ticket)
      : undefined;
    expect(ticket?.replay?.rules.map((r) => r.rule)).toEqual(['big-withdrawals', 'the-rest', null]);
    expect(ticket?.replay?.counted.desk).toBe(1);
  });

  it('refuses a malformed policy before anything is read', async () => {
    const r = await core.invoke('policyReplay', { policy: { rules: [] } } as never);
    expect(r).toMatchObject({ ok: false });
  });
});
