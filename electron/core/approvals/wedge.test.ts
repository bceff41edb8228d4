import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Policy } from '../../../shared/api/policy.ts';
import { withCoolingOff } from '../governance/state.ts';
import type { LocalGovernanceStore } from './localStore.ts';
import type { Approvals } from './service.ts';
import { HOUR, openTestDesk } from './testkit/desk.ts';
import { wedgeMargin } from './wedge.ts';

// docs/approvals.md §No wedge: no policy, operator removal or signature on either may leave the desk needing more
// distinct signers than it has. The adversary is an operator alone (or a script in the window asking
// the confirmation window for it), never a second person: the check is in the append every record
// goes through, and the proposal pages are refused earlier with the same words.

const PASS = { alice: 'alice passphrase 1', bob: 'bob passphrase 22', carol: 'carol passphrase 3' };

const TWO: Policy = { rules: [{ id: 'two', match: {}, action: 'require', approvals: 2, drafter_may_approve: true }] };
const TWO_OTHERS: Policy = { rules: [{ id: 'two-others', match: {}, action: 'require', approvals: 2 }] };
/** Allows everything but UID transfers, which need three: its change (and unfreeze) quorum is three. */
const RARE_THREE: Policy = {
  rules: [
    { id: 'uid-three', match: { kinds: ['uid_transfer'] }, action: 'require', approvals: 3, drafter_may_approve: true },
    { id: 'rest', match: {}, action: 'allow' },
  ],
};

let dir: string;
const clock = { now: 0 };
let desk: Approvals;
let store: LocalGovernanceStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wedge-'));
  clock.now = Date.parse('2026-11-26T10:00:00Z');
  ({ store, desk } = openTestDesk(dir, clock));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function operators(...names: (keyof typeof PASS)[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  ids.alice = await desk.createFirstOperator('Alice', PASS.alice);
  for (const n of names.filter((x) => x !== 'alice')) ids[n] = await desk.proposeOperator(n, PASS[n], ids.alice, PASS.alice);
  clock.now += 24 * HOUR;
  return ids;
}

describe('a policy that would wedge the desk is refused', () => {
  it('a rule needing two approvals with one operator: refused when proposed, nothing stored', async () => {
    await operators('alice');
    const seq = (await desk.load()).seq;
    await expect(desk.policyTicket('p1', TWO)).rejects.toThrow(
      /This policy would wedge the desk: rule two needs 2 approvers or admins \(2 approvals\), but the operators who could sign are Alice, admin\./,
    );
    expect((await desk.load()).seq).toBe(seq);
  });

  it('two approvals not by the drafter count the drafter: three operators, not two', async () => {
    await operators('alice', 'bob');
    await expect(desk.policyTicket('p1', TWO_OTHERS)).rejects.toThrow(
      /needs 2 approvers or admins and one more operator to draft \(2 approvals not by the drafter, plus the drafter\)/,
    );
    // Two operators are enough for two approvals the drafter may give one of.
    await expect(desk.policyTicket('p1', TWO)).resolves.toMatchObject({ what: 'policy' });
  });

  it('the change and unfreeze quorum above the operators, even from a rule that rarely matches', async () => {
    const ids = await operators('alice', 'bob');
    const t = desk.freezeTicket('stuck');
    await desk.sign(t.id, ids.alice!, PASS.alice);
    await expect(desk.policyTicket('p1', RARE_THREE)).rejects.toThrow(/rule uid-three needs 3 approvers or admins/);
    // The unfreeze stays within reach: one operator's approval under the default policy.
    const un = desk.unfreezeTicket();
    await desk.sign(un.id, ids.alice!, PASS.alice);
    expect((await desk.load()).frozen).toBeNull();
  });

  it('a ticket forged past the page check is refused when signed (the append checks every record)', async () => {
    const ids = await operators('alice');
    const t = await desk.policyTicket('p1', {
      rules: [{ id: 'one', match: {}, action: 'require', approvals: 1, drafter_may_approve: true }],
    });
    Object.assign(t, { payload: withCoolingOff(TWO, 24 * HOUR) });
    const seq = (await desk.load()).seq;
    await expect(desk.sign(t.id, ids.alice!, PASS.alice)).rejects.toThrow(/would wedge the desk/);
    expect((await desk.load()).seq).toBe(seq);
  });
});

describe('removing an operator that would wedge the desk is refused', () => {
  it('the second of two approvers under a two-approval policy', async () => {
    const ids = await operators('alice', 'bob');
    // Under the default policy one approval puts it in force after the cooling-off.
    await desk.sign((await desk.policyTicket('p1', TWO)).id, ids.alice!, PASS.alice);
    clock.now += 24 * HOUR;
    expect((await desk.policyStatus('p1')).policy).toEqual(TWO);
    await expect(desk.removeOperatorTicket(ids.bob!)).rejects.toThrow(
      /Removing bob would wedge the desk: rule two needs 2 approvers or admins/,
    );
    expect(wedgeMargin(await desk.load(), 'p1', clock.now)).toMatchObject({ signers: 2, margin: 0 });
  });

  it('a removal approved but still cooling off counts as gone: a second removal is refused', async () => {
    const ids = await operators('alice', 'bob', 'carol');
    await desk.sign((await desk.policyTicket('p1', TWO)).id, ids.alice!, PASS.alice);
    clock.now += 24 * HOUR;
    // Under TWO, removing Carol takes two approvals; it waits out its cooling-off.
    await desk.sign((await desk.removeOperatorTicket(ids.carol!)).id, ids.alice!, PASS.alice);
    const removal = [...(await desk.load()).proposals.values()].at(-1)!.ref;
    await desk.sign((await desk.decisionTicket(removal, 'approve')).id, ids.bob!, PASS.bob);
    expect(wedgeMargin(await desk.load(), 'p1', clock.now)).toMatchObject({ signers: 2, margin: 0 });
    await expect(desk.removeOperatorTicket(ids.bob!)).rejects.toThrow(/would wedge the desk/);
  });
});
