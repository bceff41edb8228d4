import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Policy } from '../../../shared/api/policy.ts';
import type { Role } from '../../../shared/api/roles.ts';
import { evaluate } from '../policy/engine.ts';
import type { LocalGovernanceStore } from './localStore.ts';
import type { Approvals } from './service.ts';
import { HOUR, openTestDesk } from './testkit/desk.ts';
import { wedgeMargin } from './wedge.ts';

// docs/approvals.md §Roles: what an operator may sign is part of their signed record and is checked where every
// governance record is folded. The adversary is an operator signing beyond their role (or a script in the
// window asking the confirmation window to): hiding a button is not the guarantee, the fold's refusal is.

const PASS: Record<string, string> = {
  Alice: 'alice passphrase 1',
  Bob: 'bob passphrase 22',
  Dan: 'dan passphrase 44',
  Vic: 'vic passphrase 55',
};
const ONE: Policy = { rules: [{ id: 'one', match: {}, action: 'require', approvals: 1 }] };
const BODY = { withdraw_order_id: 'w1', currency: 'USDT', amount: '25', address: 'Tabc', chain: 'TRX' };

let dir: string;
const clock = { now: 0 };
let store: LocalGovernanceStore;
let desk: Approvals;
let ids: Record<string, string>;

function open(): Approvals {
  const t = openTestDesk(dir, clock);
  store = t.store;
  return t.desk;
}

const sign = async (t: Promise<{ id: string }> | { id: string }, who: string) => desk.sign((await t).id, ids[who]!, PASS[who]!);
const verdict = () =>
  evaluate(ONE, { kind: 'withdrawal', currency: 'USDT', amount: '25', destination: 'verified_saved', usdt_price: '1', velocity_24h: '0' });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'roles-'));
  clock.now = Date.parse('2026-11-26T10:00:00Z');
  desk = open();
  // Alice, the first operator, is an admin; Bob an approver, Dan a drafter, Vic a viewer.
  ids = { Alice: await desk.createFirstOperator('Alice', PASS.Alice!) };
  const roles: [string, Role][] = [
    ['Bob', 'approver'],
    ['Dan', 'drafter'],
    ['Vic', 'viewer'],
  ];
  for (const [name, role] of roles) ids[name] = await desk.proposeOperator(name, PASS[name]!, ids.Alice!, PASS.Alice!, role);
  clock.now += 24 * HOUR;
  // One approval, not by the drafter: Alice and Bob may give it.
  await sign(desk.policyTicket('p1', ONE), 'Alice');
  clock.now += 24 * HOUR;
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('roles, checked where every record is folded', () => {
  it("a drafter drafts but cannot approve; an approver approves; the desk's record says who", async () => {
    await sign(desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdict()), 'Dan');
    await sign(desk.draftTicket('p1', 'r2', 'withdrawal', BODY, verdict()), 'Alice');
    await expect(sign(desk.decisionTicket('r2', 'approve'), 'Dan')).rejects.toThrow(
      /Dan is a drafter: a drafter may not approve or reject requests/,
    );
    await expect(sign(desk.decisionTicket('r2', 'reject', 'no'), 'Dan')).rejects.toThrow(/Dan is a drafter/);
    await sign(desk.decisionTicket('r1', 'approve'), 'Bob');
    expect((await desk.readyToSend('p1')).map((p) => p.ref)).toEqual(['r1']);
  });

  it('a viewer signs nothing, not even a freeze; an approver proposes no governance change', async () => {
    await expect(sign(desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdict()), 'Vic')).rejects.toThrow(
      /Vic is a viewer: a viewer may not draft/,
    );
    await expect(sign(desk.freezeTicket('panic'), 'Vic')).rejects.toThrow(/a viewer may not freeze the desk/);
    await expect(sign(desk.policyTicket('p1', ONE), 'Bob')).rejects.toThrow(
      /Bob is an approver: an approver may not propose, approve or reject/,
    );
    await expect(sign(desk.roleTicket(ids.Dan!, 'approver'), 'Bob')).rejects.toThrow(/Bob is an approver/);
    await sign(desk.freezeTicket('checking'), 'Dan');
    expect((await desk.load()).frozen?.by).toBe('Dan');
  });

  it('a role change takes the change quorum and the cooling-off, and survives a restart', async () => {
    await sign(desk.roleTicket(ids.Dan!, 'approver'), 'Alice');
    await sign(desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdict()), 'Alice');
    await expect(sign(desk.decisionTicket('r1', 'approve'), 'Dan')).rejects.toThrow(/Dan is a drafter/);
    clock.now += 24 * HOUR;
    await store.close();
    desk = open();
    await sign(desk.decisionTicket('r1', 'approve'), 'Dan');
    expect((await desk.readyToSend('p1')).map((p) => p.ref)).toEqual(['r1']);
  });

  it('names the operators whose loss would wedge the desk: here the only admin, for the change quorum', async () => {
    expect(wedgeMargin(await desk.load(), 'p1', clock.now)).toMatchObject({
      need: { what: expect.stringMatching(/^the change quorum/) },
      margin: 0,
      able: ['Alice'],
    });
  });

  it('a role change that would wedge the desk is refused: the last admin, or too few approvers', async () => {
    await expect(desk.roleTicket(ids.Alice!, 'approver')).rejects.toThrow(
      /Making Alice an approver would wedge the desk: the change quorum .* needs 1 admin \(/,
    );
    // Bob a viewer, or Dan: one approval not by the drafter still has Alice to approve and another to draft.
    await expect(desk.roleTicket(ids.Bob!, 'viewer')).resolves.toMatchObject({ what: 'set_role' });
    await expect(desk.roleTicket(ids.Dan!, 'viewer')).resolves.toMatchObject({ what: 'set_role' });
  });
});
