import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Policy } from '../../../shared/api/policy.ts';
import { signAs } from '../operators/keys.ts';
import { textFor } from '../governance/state.ts';
import { gateRefusal } from './sendGate.ts';
import { facts, openTestDesk, PASS, putInForce, reviewed, threeOperators, withdrawalBody, type TestDesk } from './testkit/desk.ts';

// governance/state.ts activeAt: an operator is in force from `active_from` until `removed_from`. Once a quorum
// removed an operator and the removal took effect, their signature counts nowhere: the desk will not
// make it, the fold refuses a record carrying it (a store written around the desk), and the executor's
// gate does not count it toward the quorum of a write about to leave.

/** Two approvals, the drafter's among them: Alice drafts, Carol's approval is the second. */
const TWO: Policy = { rules: [{ id: 'two', match: {}, action: 'require', approvals: 2, drafter_may_approve: true }] };

let dir: string;
let t: TestDesk;
let ids: { alice: string; bob: string; carol: string };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'active-at-'));
  t = openTestDesk(dir);
  ids = await threeOperators(t);
  await putInForce(t, TWO, ids.alice, PASS.alice);
});
afterEach(async () => {
  await t.store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function draft(ref: string, amount: string): Promise<void> {
  const ticket = await t.desk.draftTicket(
    'p1',
    ref,
    'withdrawal',
    withdrawalBody(ref, amount),
    reviewed(TWO, amount),
    undefined,
    undefined,
    facts(amount),
  );
  await t.desk.sign(ticket.id, ids.alice, PASS.alice);
}

const approve = async (ref: string, who: keyof typeof ids) =>
  t.desk.sign((await t.desk.decisionTicket(ref, 'approve')).id, ids[who], PASS[who]);

/** Carol removed by Alice and Bob (the change quorum of TWO), in effect once the cooling-off has passed. */
async function removeCarol(): Promise<number> {
  await t.desk.sign((await t.desk.removeOperatorTicket(ids.carol)).id, ids.alice, PASS.alice);
  const removal = [...(await t.desk.load()).proposals.values()].find((p) => p.what === 'remove_operator')!.ref;
  await approve(removal, 'bob');
  t.clock.now += t.rules.coolingOffMs + 1;
  const removedFrom = (await t.desk.load()).operators.get(ids.carol)!.removed_from;
  expect(removedFrom).not.toBeNull();
  expect(removedFrom!).toBeLessThan(t.clock.now);
  return removedFrom!;
}

describe('a removed operator signs nothing that counts', () => {
  it('the desk refuses their signature once the removal is in effect', async () => {
    await draft('r1', '50');
    await removeCarol();
    await expect(approve('r1', 'carol')).rejects.toThrow(/cannot sign now \(unknown, removed, or not yet in force\)/);
    expect((await t.desk.load()).proposals.get('r1')!.approved_at).toBeNull();
  });

  it('the fold refuses a stored record signed by them after the removal (a store written around the desk)', async () => {
    await draft('r1', '50');
    await removeCarol();
    const s = await t.desk.load();
    const p = s.proposals.get('r1')!;
    const key = (await t.store.operatorKey(ids.carol))!;
    // Carol's real signature over exactly the approval text: only her removal makes it not count.
    const signature = await signAs(key, PASS.carol, textFor('approve', 'r1', p.what, p.payload, p.profile ?? ''));
    await t.store.append(
      { type: 'signoff', ref: 'r1', signed: { action: 'approve', operator: ids.carol, name: 'Carol', signature } },
      s.seq,
    );
    t = await t.reopen();
    await expect(t.desk.load()).rejects.toThrow(/governance record \d+ \(signoff\) does not check: Carol was removed as an operator/);
  });

  it('the gate does not count their approval when it is dated after the removal', async () => {
    await draft('r1', '50');
    await approve('r1', 'carol');
    const removedFrom = await removeCarol();
    const w = { id: 'r1', kind: 'withdrawal' as const, body: withdrawalBody('r1', '50') };
    // Signed while in force, it still carries the write after she is removed.
    expect(gateRefusal(await t.desk.load(), t.rules, 'p1', w, t.clock.now)).toBeNull();
    // The same signature in a state that dates it after the removal (a store written around the fold) does not.
    const s = await t.desk.load();
    s.proposals.get('r1')!.signoffs[0]!.at = t.clock.now;
    expect(t.clock.now).toBeGreaterThan(removedFrom);
    expect(gateRefusal(s, t.rules, 'p1', w, t.clock.now)).toMatch(/needs 2 approvals; r1 has 1 that verify/);
  });
});
