import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy } from '../../../shared/api/policy.ts';
import type { BatchPayload } from '../../../shared/api/batch.ts';
import { gateRefusal, type GatedWrite } from './sendGate.ts';
import { facts, openTestDesk, PASS, putInForce, reviewed, threeOperators, withdrawalBody, type TestDesk } from './testkit/desk.ts';

// The executor's gate: a write leaves only when a governance record approved exactly it (id, kind, body,
// signing key, profile) with signatures that verify, by operators in force when they signed, reaching the
// quorum of the policy in force now. A kind that policy lets go without signatures passes without a record.

const TWO_OTHERS: Policy = {
  rules: [
    { id: 'cancels-free', match: { kinds: ['spot_cancel', 'spot_cancel_all'] }, action: 'allow' },
    { id: 'two-others', match: { kinds: ['withdrawal'] }, action: 'require', approvals: 2 },
    { id: 'one', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
  ],
};

let dir: string;
let t: TestDesk;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-'));
  t = openTestDesk(dir);
});
afterEach(async () => {
  await t.store.close();
  rmSync(dir, { recursive: true, force: true });
});

const write = (id: string, amount: string, over: Partial<GatedWrite> = {}): GatedWrite => ({
  id,
  kind: 'withdrawal',
  body: withdrawalBody(id, amount),
  ...over,
});

async function gate(w: GatedWrite, profile = 'p1'): Promise<string | null> {
  return gateRefusal(await t.desk.load(), t.rules, profile, w, t.clock.now);
}

async function approvedRequest(ref: string, amount: string, by: string): Promise<void> {
  const ticket = await t.desk.draftTicket(
    'p1',
    ref,
    'withdrawal',
    withdrawalBody(ref, amount),
    reviewed(DEFAULT_POLICY, amount),
    undefined,
    undefined,
    facts(amount),
  );
  await t.desk.sign(ticket.id, by, PASS.alice);
}

describe('the gate before a send', () => {
  it('lets through exactly the write the operators approved, and nothing that differs from it', async () => {
    const { alice } = await threeOperators(t);
    await approvedRequest('r1', '50', alice);
    expect(await gate(write('r1', '50'))).toBeNull();
    expect(await gate(write('r1', '5000'))).toMatch(/differs from what the operators approved as r1/);
    expect(await gate(write('r1', '50', { kind: 'uid_transfer' }))).toMatch(/differs/);
    expect(await gate(write('r1', '50', { signer: '1234567' }))).toMatch(/differs/);
    expect(await gate(write('r1', '50'), 'p2')).toMatch(/approval of r1 is for profile p1, not p2/);
  });

  it('refuses a governed write no record approved (a journal line alone), and passes a cancel the policy in force lets go', async () => {
    const { alice } = await threeOperators(t);
    expect(await gate(write('forged', '5000'))).toMatch(/no operators' approval of forged is on record.*governs withdrawals/);
    const cancel: GatedWrite = { id: 'c1', kind: 'spot_cancel', body: { order_id: '1', currency_pair: 'BTC_USDT' } };
    expect(await gate(cancel)).toBeNull();
    // Judged by the policy in force: one that governs cancels refuses the same journal line.
    await putInForce(
      t,
      { rules: [{ id: 'sign-everything', match: {}, action: 'require', approvals: 1, drafter_may_approve: true }] },
      alice,
      PASS.alice,
    );
    expect(await gate(cancel)).toMatch(/governs spot cancels/);
  });

  it('counts only signatures that verify, against the quorum of the policy in force now', async () => {
    const { alice, bob, carol } = await threeOperators(t);
    await approvedRequest('r1', '50', alice);
    await putInForce(t, TWO_OTHERS, alice, PASS.alice);
    expect(await gate(write('r1', '50'))).toMatch(/needs 2 approvals by operators other than the drafter; r1 has 0 that verify/);
    await t.desk.sign((await t.desk.decisionTicket('r1', 'approve')).id, bob, PASS.bob);
    await t.desk.sign((await t.desk.decisionTicket('r1', 'approve')).id, carol, PASS.carol);
    expect(await gate(write('r1', '50'))).toBeNull();
    // A signature altered in the state the gate reads (a store written around the fold) does not count.
    const s = await t.desk.load();
    const p = s.proposals.get('r1')!;
    p.signoffs[1]!.signed = { ...p.signoffs[1]!.signed, signature: p.signoffs[0]!.signed.signature };
    expect(gateRefusal(s, t.rules, 'p1', write('r1', '50'), t.clock.now)).toMatch(/r1 has 1 that verify/);
  });

  it('checks a batch row by row against its batch', async () => {
    const { alice } = await threeOperators(t);
    const rows = [
      { ref: 'row1', kind: 'withdrawal' as const, body: withdrawalBody('row1', '10') },
      { ref: 'row2', kind: 'withdrawal' as const, body: withdrawalBody('row2', '20') },
    ];
    const payload: BatchPayload = {
      batch: 'payouts',
      title: 'Payouts',
      source: { file: 'p.csv' },
      rows,
      verdict: reviewed(DEFAULT_POLICY, '20'),
      totals: [{ currency: 'USDT', amount: '30' }],
      facts: [facts('10'), facts('20')],
    };
    await t.desk.sign((await t.desk.draftBatchTicket('p1', 'b1', payload)).id, alice, PASS.alice);
    expect(await gate(write('row1', '10'))).toBeNull();
    expect(await gate(write('row2', '20'))).toBeNull();
    expect(await gate(write('row2', '200'))).toMatch(/differs from what the operators approved as row2/);
    expect(await gate(write('row3', '20'))).toMatch(/no operators' approval of row3/);
  });
});
