import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy } from '../../../shared/api/policy.ts';
import { withCoolingOff } from '../governance/state.ts';
import { facts, HOUR, openTestDesk, PASS, putInForce, reviewed, threeOperators, withdrawalBody, type TestDesk } from './testkit/desk.ts';

// The governance fold computes a request's quorum from the policy in force at each signature, counting
// the other requests the records hold toward velocity, and never from the drafter's verdict alone; a
// change's cooling-off is the one signed into it when it was proposed.

const ONE_K_TWO_OTHERS: Policy = {
  rules: [
    { id: 'cancels-free', match: { kinds: ['spot_cancel', 'spot_cancel_all'] }, action: 'allow' },
    { id: 'thousand-two-others', match: { kinds: ['withdrawal'], amount_at_least: '1000' }, action: 'require', approvals: 2 },
    { id: 'one', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
  ],
};
/** A policy one operator can live under (VELOCITY needs two): for the cooling-off's own tests. */
const SOLO: Policy = { rules: [{ id: 'one', match: {}, action: 'require', approvals: 1, drafter_may_approve: true }] };
const VELOCITY: Policy = {
  rules: [
    {
      id: 'ten-k-a-day',
      match: { kinds: ['withdrawal'], velocity_24h_at_least: '10000' },
      action: 'require',
      approvals: 2,
      drafter_may_approve: true,
    },
    { id: 'one', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
  ],
};

let dir: string;
let t: TestDesk;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quorum-'));
  t = openTestDesk(dir);
});
afterEach(async () => {
  await t.store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function draft(ref: string, amount: string, policy: Policy, by: string, pass: string, velocity = '0'): Promise<void> {
  const ticket = await t.desk.draftTicket(
    'p1',
    ref,
    'withdrawal',
    withdrawalBody(ref, amount),
    reviewed(policy, amount, velocity),
    undefined,
    undefined,
    facts(amount),
  );
  await t.desk.sign(ticket.id, by, pass);
}

describe('the quorum of a request', () => {
  it('is that of the policy in force when it is signed, not the one its ticket was reviewed under', async () => {
    const { alice, bob, carol } = await threeOperators(t);
    // Reviewed and ticketed under the default policy (one signature, the drafter's own)...
    const ticket = await t.desk.draftTicket(
      'p1',
      'r1',
      'withdrawal',
      withdrawalBody('r1', '5000'),
      reviewed(DEFAULT_POLICY, '5000'),
      undefined,
      undefined,
      facts('5000'),
    );
    expect(JSON.parse(ticket.payload).verdict.rule).toBe('confirm-every-write');
    // ...then a stricter policy takes effect before the drafter signs.
    await putInForce(t, ONE_K_TWO_OTHERS, alice, PASS.alice);
    await t.desk.sign(ticket.id, alice, PASS.alice);
    const p = (await t.desk.load()).proposals.get('r1')!;
    expect(p.approved_at).toBeNull();
    expect(t.desk.quorum(p)).toEqual({ needed: 2, approvers: [] });
    expect(await t.desk.readyToSend('p1')).toEqual([]);
    await t.desk.sign((await t.desk.decisionTicket('r1', 'approve')).id, bob, PASS.bob);
    expect(await t.desk.readyToSend('p1')).toEqual([]);
    await t.desk.sign((await t.desk.decisionTicket('r1', 'approve')).id, carol, PASS.carol);
    expect((await t.desk.readyToSend('p1')).map((x) => x.ref)).toEqual(['r1']);
  });

  it('approved under a gentler policy, waits at hand-over for what the policy in force now asks, and takes more signatures', async () => {
    const { alice, bob, carol } = await threeOperators(t);
    await draft('r1', '5000', DEFAULT_POLICY, alice, PASS.alice);
    expect((await t.desk.readyToSend('p1')).map((x) => x.ref)).toEqual(['r1']);
    await putInForce(t, ONE_K_TWO_OTHERS, alice, PASS.alice);
    expect(await t.desk.readyToSend('p1')).toEqual([]);
    const p = (await t.desk.load()).proposals.get('r1')!;
    expect(t.desk.stillApproved(p)).toBe(false);
    expect(t.desk.verdictNow(p)).toMatchObject({ rule: 'thousand-two-others', approvals: 2, drafter_may_approve: false });
    await t.desk.sign((await t.desk.decisionTicket('r1', 'approve')).id, bob, PASS.bob);
    await t.desk.sign((await t.desk.decisionTicket('r1', 'approve')).id, carol, PASS.carol);
    expect((await t.desk.readyToSend('p1')).map((x) => x.ref)).toEqual(['r1']);
    // Once it has what it needs, nobody adds to it.
    await expect(t.desk.sign((await t.desk.decisionTicket('r1', 'approve')).id, alice, PASS.alice)).rejects.toThrow(/all the approvals/);
  });

  it('counts the other requests on record toward velocity: one operator cannot sign three 4,000 tickets through a 10,000 rule', async () => {
    const { alice, bob } = await threeOperators(t);
    await putInForce(t, VELOCITY, alice, PASS.alice);
    // Three tickets opened before any was signed: each review saw no outflow, so each says "one".
    const tickets = [];
    for (const ref of ['a', 'b', 'c'])
      tickets.push(
        await t.desk.draftTicket(
          'p1',
          ref,
          'withdrawal',
          withdrawalBody(ref, '4000'),
          reviewed(VELOCITY, '4000'),
          undefined,
          undefined,
          facts('4000'),
        ),
      );
    expect(tickets.map((x) => JSON.parse(x.payload).verdict.rule)).toEqual(['one', 'one', 'one']);
    for (const x of tickets) await t.desk.sign(x.id, alice, PASS.alice);
    // 4,000 and 8,000 are under the rule; the third makes 12,000 and needs a second operator.
    expect((await t.desk.readyToSend('p1')).map((x) => x.ref)).toEqual(['a', 'b']);
    const c = (await t.desk.load()).proposals.get('c')!;
    expect(t.desk.verdictNow(c)).toMatchObject({ rule: 'ten-k-a-day', approvals: 2 });
    await t.desk.sign((await t.desk.decisionTicket('c', 'approve')).id, bob, PASS.bob);
    expect((await t.desk.readyToSend('p1')).map((x) => x.ref)).toEqual(['a', 'b', 'c']);
  });

  it('does not count a rejected request, nor one drafted more than 24 hours before', async () => {
    const { alice, bob } = await threeOperators(t);
    await putInForce(t, VELOCITY, alice, PASS.alice);
    await draft('old', '9000', VELOCITY, alice, PASS.alice);
    t.clock.now += 24 * HOUR + 1;
    await draft('waits', '9000', VELOCITY, alice, PASS.alice);
    expect((await t.desk.readyToSend('p1')).map((x) => x.ref)).toEqual(['old', 'waits']);
    // Not approved yet (needs a second operator): rejected, it no longer weighs on the next.
    const ticket = await t.desk.draftTicket(
      'p1',
      'big',
      'withdrawal',
      withdrawalBody('big', '2000'),
      reviewed(VELOCITY, '2000', '9000'),
      undefined,
      undefined,
      facts('2000'),
    );
    await t.desk.sign(ticket.id, alice, PASS.alice);
    expect((await t.desk.readyToSend('p1')).map((x) => x.ref)).toEqual(['old', 'waits']);
    await t.desk.sign((await t.desk.decisionTicket('big', 'reject', 'too much today')).id, bob, PASS.bob);
    await draft('small', '500', VELOCITY, alice, PASS.alice, '9000');
    expect((await t.desk.readyToSend('p1')).map((x) => x.ref)).toEqual(['old', 'waits', 'small']);
  });

  it('a request the policy in force now blocks can only be rejected', async () => {
    const { alice, bob } = await threeOperators(t);
    await putInForce(t, { rules: [{ id: 'x', match: {}, action: 'require', approvals: 2, drafter_may_approve: true }] }, alice, PASS.alice);
    await draft(
      'r1',
      '10',
      { rules: [{ id: 'x', match: {}, action: 'require', approvals: 2, drafter_may_approve: true }] },
      alice,
      PASS.alice,
    );
    // A quorum of two needs Bob for the next policy: Alice proposes, Bob approves.
    const change = await t.desk.policyTicket('p1', {
      rules: [{ id: 'nothing-leaves', match: { kinds: ['withdrawal'] }, action: 'block' }, ...DEFAULT_POLICY.rules],
    });
    await t.desk.sign(change.id, alice, PASS.alice);
    const ref = [...(await t.desk.load()).proposals.values()].find((p) => p.what === 'policy' && p.approved_at === null)!.ref;
    await t.desk.sign((await t.desk.decisionTicket(ref, 'approve')).id, bob, PASS.bob);
    t.clock.now += 24 * HOUR + 1;
    await expect(t.desk.sign((await t.desk.decisionTicket('r1', 'approve')).id, bob, PASS.bob)).rejects.toThrow(
      /policy in force blocks it \(rule nothing-leaves\)/,
    );
  });
});

describe('the cooling-off of a change', () => {
  it('is signed into the change when proposed: a restart with a shorter one does not shorten a pending change', async () => {
    const alice = await t.desk.createFirstOperator('Alice', PASS.alice);
    await t.desk.sign((await t.desk.policyTicket('p1', SOLO)).id, alice, PASS.alice);
    const p = [...(await t.desk.load()).proposals.values()].find((x) => x.what === 'policy')!;
    expect(JSON.parse(p.payload).cooling_off_ms).toBe(24 * HOUR);
    t = await t.reopen({ coolingOffMs: 0 });
    expect((await t.desk.policyStatus('p1')).ref).toBeNull();
    t.clock.now += 24 * HOUR - 1000;
    expect((await t.desk.policyStatus('p1')).ref).toBeNull();
    t.clock.now += 1000;
    expect((await t.desk.policyStatus('p1')).ref).toBe(p.ref);
  });

  it('a proposal signing less than the desk requires is refused before it is stored', async () => {
    t = await t.reopen({ minCoolingOffMs: 24 * HOUR });
    const alice = await t.desk.createFirstOperator('Alice', PASS.alice);
    const body = JSON.parse(withCoolingOff(SOLO, 0)) as object;
    const s = await t.desk.load();
    const ticket = await t.desk.policyTicket('p1', SOLO);
    // The ticket is the desk's own (24 h); a forged payload asking 0 h does not get in.
    expect(JSON.parse(ticket.payload).cooling_off_ms).toBe(24 * HOUR);
    Object.assign(ticket, { payload: JSON.stringify(body) });
    await expect(t.desk.sign(ticket.id, alice, PASS.alice)).rejects.toThrow(/cooling-off of 0 h; this desk's changes wait at least 24 h/);
    expect((await t.desk.load()).seq).toBe(s.seq);
  });
});
