import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Policy } from '../../../shared/api/policy.ts';
import { signAs } from '../operators/keys.ts';
import { evaluate } from '../policy/engine.ts';
import { textFor, withCoolingOff } from '../governance/state.ts';
import type { LocalGovernanceStore } from './localStore.ts';
import type { Approvals } from './service.ts';
import { HOUR, openTestDesk } from './testkit/desk.ts';

// docs/approvals.md §No wedge: a documented recovery for a desk wedged anyway (an older desk's data, written before the
// wedge check): what it needs (the credential, checked at the door; here a Sandbox-only desk's "none"),
// what it records (a recovery record, frozen at once), that nothing is sent meanwhile, and that after the
// cooling-off one operator can repair the desk.

const PASS = 'alice passphrase 1';
const TWO: Policy = { rules: [{ id: 'two', match: {}, action: 'require', approvals: 2, drafter_may_approve: true }] };
const BODY = { withdraw_order_id: 'w1', currency: 'USDT', amount: '25', address: 'Tabc', chain: 'TRX' };

let dir: string;
const clock = { now: 0 };
let store: LocalGovernanceStore;
let desk: Approvals;
let alice: string;

function open(): Approvals {
  const t = openTestDesk(dir, clock);
  store = t.store;
  return t.desk;
}

const verdict = (p: Policy) =>
  evaluate(p, { kind: 'withdrawal', currency: 'USDT', amount: '25', destination: 'verified_saved', usdt_price: '1', velocity_24h: '0' });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recovery-'));
  clock.now = Date.parse('2026-11-26T10:00:00Z');
  desk = open();
  alice = await desk.createFirstOperator('Alice', PASS);
  // An older desk let Alice alone put a two-approval policy in force: written as that desk wrote it.
  const payload = withCoolingOff(TWO, 24 * HOUR);
  const key = (await store.operatorKey(alice))!;
  const signature = await signAs(key, PASS, textFor('propose', 'old-policy', 'policy', payload, 'p1'));
  const seq = (await desk.load()).seq;
  await store.append(
    {
      type: 'proposal',
      ref: 'old-policy',
      what: 'policy',
      profile: 'p1',
      payload,
      signed: { action: 'propose', operator: alice, name: 'Alice', signature },
    },
    seq,
  );
  clock.now += 24 * HOUR;
  await store.close();
  desk = open();
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('recovering a wedged desk', () => {
  it('is wedged: a request can never reach its quorum, and no change can repair it', async () => {
    expect(await desk.wedged()).toMatch(/The policy in force for p1 wedges the desk: rule two needs 2 approvers or admins/);
    await desk.sign((await desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdict(TWO))).id, alice, PASS);
    expect(await desk.readyToSend('p1')).toEqual([]);
  });

  it('freezes at once, sends nothing meanwhile, and after the cooling-off one operator repairs it', async () => {
    const { effective_at } = await desk.recover('Bob left the company; two approvals cannot be reached');
    expect(effective_at).toBe(clock.now + 24 * HOUR);
    const s = await desk.load();
    expect(s.frozen?.reason).toBe('Bob left the company; two approvals cannot be reached');
    expect(s.recovery).toMatchObject({ effective_at });
    await expect(desk.recover('again')).rejects.toThrow(/a recovery is under way already/);
    // Frozen: nothing is drafted, so nothing is sent, while the recovery waits out its cooling-off.
    await expect(desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdict(TWO))).rejects.toThrow(/frozen/);

    clock.now += 24 * HOUR;
    await store.close();
    desk = open();
    expect((await desk.policyStatus('p1')).ref).toBeNull();
    expect(await desk.wedged()).toBeNull();
    // One operator, the default policy: Alice unfreezes alone, then a request goes with her signature.
    await desk.sign(desk.unfreezeTicket().id, alice, PASS);
    expect((await desk.load()).frozen).toBeNull();
    const ONE_OK = {
      rules: [{ id: 'confirm-every-write', match: {}, action: 'require' as const, approvals: 1, drafter_may_approve: true }],
    };
    await desk.sign((await desk.draftTicket('p1', 'r2', 'withdrawal', BODY, verdict(ONE_OK))).id, alice, PASS);
    expect((await desk.readyToSend('p1')).map((p) => p.ref)).toEqual(['r2']);
  });

  it('is refused on a desk that is not wedged', async () => {
    await desk.recover('first');
    clock.now += 24 * HOUR;
    await expect(desk.recover('not needed')).rejects.toThrow(/the desk is not wedged/);
  });
});
