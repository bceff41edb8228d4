import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Policy } from '../../../shared/api/policy.ts';
import { evaluate } from '../policy/engine.ts';
import type { LocalGovernanceStore } from './localStore.ts';
import type { Approvals } from './service.ts';
import { HOUR, openTestDesk } from './testkit/desk.ts';

// docs/approvals.md §Expiry: a request not approved within the policy's time (72 h unless it says otherwise)
// expires. It is never sent and nobody may approve it any more, across a restart as before one: the
// expiry is folded from the records' own times, not kept in memory.

const PASS = { alice: 'alice passphrase 1', bob: 'bob passphrase 22' };
const TWO: Policy = { rules: [{ id: 'two', match: {}, action: 'require', approvals: 2, drafter_may_approve: true }] };
const BODY = { withdraw_order_id: 'w1', currency: 'USDT', amount: '25', address: 'Tabc', chain: 'TRX' };

let dir: string;
const clock = { now: 0 };
let store: LocalGovernanceStore;
let desk: Approvals;

function open(): Approvals {
  const t = openTestDesk(dir, clock);
  store = t.store;
  return t.desk;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'expiry-'));
  clock.now = Date.parse('2026-11-26T10:00:00Z');
  desk = open();
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Alice and Bob in force under `policy`; answers their ids. */
async function twoOperatorsUnder(policy: Policy): Promise<{ alice: string; bob: string }> {
  const alice = await desk.createFirstOperator('Alice', PASS.alice);
  const bob = await desk.proposeOperator('Bob', PASS.bob, alice, PASS.alice);
  clock.now += 24 * HOUR;
  await desk.sign((await desk.policyTicket('p1', policy)).id, alice, PASS.alice);
  clock.now += 24 * HOUR;
  return { alice, bob };
}

async function draft(ref: string, policy: Policy, by: string): Promise<void> {
  const verdict = evaluate(policy, {
    kind: 'withdrawal',
    currency: 'USDT',
    amount: '25',
    destination: 'verified_saved',
    usdt_price: '1',
    velocity_24h: '0',
  });
  await desk.sign((await desk.draftTicket('p1', ref, 'withdrawal', BODY, verdict)).id, by, PASS.alice);
}

describe('a request not approved in time expires', () => {
  it('after 72 h by default: never sent, nobody may approve it, across a restart', async () => {
    const { alice, bob } = await twoOperatorsUnder(TWO);
    await draft('r1', TWO, alice);
    await draft('r2', TWO, alice);
    clock.now += 72 * HOUR - 1;
    // Just in time: r2 gets its second approval and goes.
    await desk.sign((await desk.decisionTicket('r2', 'approve')).id, bob, PASS.bob);
    clock.now += 1;
    await store.close();
    desk = open();
    const r1 = (await desk.load()).proposals.get('r1')!;
    expect(desk.expiry(r1)).toEqual({ at: r1.drafted_at + 72 * HOUR, expired: true });
    const ticket = await desk.decisionTicket('r1', 'approve');
    await expect(desk.sign(ticket.id, bob, PASS.bob)).rejects.toThrow(/expired unapproved at .*: it will never be sent; draft it again/);
    expect((await desk.readyToSend('p1')).map((p) => p.ref)).toEqual(['r2']);
  });

  it('after the hours the policy in force at its draft sets', async () => {
    const quick: Policy = { ...TWO, request_expiry_hours: 1 };
    const { alice, bob } = await twoOperatorsUnder(quick);
    await draft('r1', quick, alice);
    clock.now += HOUR;
    await expect(desk.sign((await desk.decisionTicket('r1', 'approve')).id, bob, PASS.bob)).rejects.toThrow(/expired unapproved/);
  });
});
