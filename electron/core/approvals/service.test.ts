import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Policy, Verdict } from '../../../shared/api/policy.ts';
import { testJournalKey } from '../journal/testkit/key.ts';
import { createOperatorKey, signAs } from '../operators/keys.ts';
import { evaluate } from '../policy/engine.ts';
import { textFor } from '../governance/state.ts';
import { LocalGovernanceStore } from './localStore.ts';
import { Approvals } from './service.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const HOUR = 3_600_000;
const TWO_APPROVALS: Policy = {
  rules: [
    { id: 'two-others', match: { kinds: ['withdrawal'] }, action: 'require', approvals: 2 },
    { id: 'rest', match: {}, action: 'allow' },
  ],
};
const BODY = { withdraw_order_id: 'w1', currency: 'USDT', amount: '25', address: 'Tabc', chain: 'TRX' };

let dir: string;
let clock: number;
let store: LocalGovernanceStore;
let desk: Approvals;
const PASS = { alice: 'alice passphrase 1', bob: 'bob passphrase 22', carol: 'carol passphrase 3', mallory: 'mallory passphrase' };

function open(): Approvals {
  store = new LocalGovernanceStore(dir, 'governance', { key: testJournalKey, now: () => clock });
  return new Approvals({
    store,
    rules: { coolingOffMs: 24 * HOUR, profiles: () => ['p1'] },
    credential: 'none',
    now: () => clock,
    scrypt: FAST,
  });
}

function verdictOf(policy: Policy): Verdict {
  return evaluate(policy, {
    kind: 'withdrawal',
    currency: 'USDT',
    amount: '25',
    destination: 'verified_saved',
    usdt_price: '1',
    velocity_24h: '0',
  });
}

async function sign(ticket: Promise<{ id: string }>, who: string, op: keyof typeof PASS): Promise<void> {
  await desk.sign((await ticket).id, who, PASS[op]);
}

/** Alice alone, then Bob and Carol added under the default policy (quorum 1), then a two-approval policy in force. */
/** Alice, then Bob and Carol in force: enough operators for TWO_APPROVALS (two, not by the drafter). */
async function threeOperators(): Promise<{ alice: string; bob: string; carol: string }> {
  const alice = await desk.createFirstOperator('Alice', PASS.alice);
  const bob = await desk.proposeOperator('Bob', PASS.bob, alice, PASS.alice);
  const carol = await desk.proposeOperator('Carol', PASS.carol, alice, PASS.alice);
  clock += 24 * HOUR;
  return { alice, bob, carol };
}

async function threeOperatorsUnderTwoApprovals(): Promise<{ alice: string; bob: string; carol: string }> {
  const { alice, bob, carol } = await threeOperators();
  await sign(desk.policyTicket('p1', TWO_APPROVALS), alice, 'alice');
  clock += 24 * HOUR;
  expect((await desk.policyStatus('p1')).policy).toEqual(TWO_APPROVALS);
  return { alice, bob, carol };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gov-'));
  clock = Date.parse('2026-01-01T00:00:00Z');
  desk = open();
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('requests under a quorum', () => {
  it('needs N distinct operators other than the drafter, for the exact body drafted', async () => {
    const { alice, bob, carol } = await threeOperatorsUnderTwoApprovals();
    const draft = await desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdictOf(TWO_APPROVALS));
    await desk.sign(draft.id, alice, PASS.alice);
    await expect(sign(desk.decisionTicket('r1', 'approve'), alice, 'alice')).rejects.toThrow(/Alice drafted this request/);
    await sign(desk.decisionTicket('r1', 'approve'), bob, 'bob');
    expect(await desk.readyToSend('p1')).toEqual([]);
    await expect(sign(desk.decisionTicket('r1', 'approve'), bob, 'bob')).rejects.toThrow(/approved this already/);
    await sign(desk.decisionTicket('r1', 'approve'), carol, 'carol');
    const ready = await desk.readyToSend('p1');
    expect(ready.map((p) => p.ref)).toEqual(['r1']);
    expect(desk.signaturesOf(ready[0]!).map((s) => s.name)).toEqual(['Alice', 'Bob', 'Carol']);
    await desk.markDispatched('r1', 'p1');
    expect(await desk.readyToSend('p1')).toEqual([]);
  });

  it('a wrong passphrase signs nothing, and an approval made for another body does not verify', async () => {
    const { alice, bob } = await threeOperatorsUnderTwoApprovals();
    await desk.sign((await desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdictOf(TWO_APPROVALS))).id, alice, PASS.alice);
    await expect(desk.sign((await desk.decisionTicket('r1', 'approve')).id, bob, 'not bob at all')).rejects.toThrow(/not Bob's passphrase/);
    // An edited request is a new draft: Bob's signature over the first body does not carry over.
    const edited = JSON.stringify({ kind: 'withdrawal', body: { ...BODY, amount: '2500' }, verdict: verdictOf(TWO_APPROVALS) });
    const key = (await store.operatorKey(bob))!;
    const forBody = await signAs(key, PASS.bob, textFor('approve', 'r1', 'request', edited, 'p1'));
    const s = await desk.load();
    await expect(
      store
        .append({ type: 'signoff', ref: 'r1', signed: { action: 'approve', operator: bob, name: 'Bob', signature: forBody } }, s.seq)
        .then(() => {
          desk = new Approvals({ store, rules: { coolingOffMs: 0, profiles: () => ['p1'] }, credential: 'none', now: () => clock });
          return desk.load();
        }),
    ).rejects.toThrow(/Bob's signature does not verify/);
  });

  it('a blocked request cannot be drafted, and a freeze stops drafts and sends until a quorum unfreezes', async () => {
    const { alice, bob, carol } = await threeOperatorsUnderTwoApprovals();
    const blocked = evaluate(
      { rules: [{ id: 'no', match: {}, action: 'block' }] },
      { kind: 'withdrawal', currency: 'USDT', amount: '1', destination: 'unknown', usdt_price: '1', velocity_24h: '0' },
    );
    await expect(desk.draftTicket('p1', 'rb', 'withdrawal', BODY, blocked)).rejects.toThrow(/blocks/);
    await desk.sign((await desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdictOf(TWO_APPROVALS))).id, alice, PASS.alice);
    await sign(desk.decisionTicket('r1', 'approve'), bob, 'bob');
    await sign(desk.decisionTicket('r1', 'approve'), carol, 'carol');
    await desk.sign(desk.freezeTicket('suspicious').id, bob, PASS.bob);
    expect(await desk.readyToSend('p1')).toEqual([]);
    await expect(desk.draftTicket('p1', 'r2', 'withdrawal', BODY, verdictOf(TWO_APPROVALS))).rejects.toThrow(/frozen/);
    await desk.sign(desk.unfreezeTicket().id, bob, PASS.bob);
    expect((await desk.load()).frozen).not.toBeNull();
    await sign(
      desk.decisionTicket([...(await desk.load()).proposals.values()].find((p) => p.what === 'unfreeze')!.ref, 'approve'),
      carol,
      'carol',
    );
    expect((await desk.load()).frozen).toBeNull();
    expect((await desk.readyToSend('p1')).map((p) => p.ref)).toEqual(['r1']);
  });
});

describe('operator and policy changes', () => {
  it("one operator's passphrase cannot add a second operator who then supplies the second approval", async () => {
    const { alice, bob } = await threeOperatorsUnderTwoApprovals();
    const mallory = await desk.proposeOperator('Mallory', PASS.mallory, alice, PASS.alice);
    expect(desk.changeQuorum()).toBe(2);
    clock += 48 * HOUR;
    // Alice's proposal alone is not a quorum: Mallory never comes into force.
    await desk.sign((await desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdictOf(TWO_APPROVALS))).id, alice, PASS.alice);
    await expect(sign(desk.decisionTicket('r1', 'approve'), mallory, 'mallory')).rejects.toThrow(/cannot sign now/);
    // With Bob's approval she is added, but only after the cooling-off; meanwhile she is pending.
    const addRef = [...(await desk.load()).proposals.values()].find((p) => p.what === 'add_operator' && p.payload.includes('Mallory'))!.ref;
    await sign(desk.decisionTicket(addRef, 'approve'), bob, 'bob');
    expect((await desk.load()).proposals.get(addRef)!.effective_at).toBe(clock + 24 * HOUR);
    await expect(sign(desk.decisionTicket('r1', 'approve'), mallory, 'mallory')).rejects.toThrow(/cannot sign now/);
    clock += 24 * HOUR;
    await sign(desk.decisionTicket('r1', 'approve'), mallory, 'mallory');
  });

  it('a policy change waits out the cooling-off before it is in force', async () => {
    const { alice } = await threeOperators();
    await sign(desk.policyTicket('p1', TWO_APPROVALS), alice, 'alice');
    clock += 23 * HOUR;
    expect((await desk.policyStatus('p1')).ref).toBeNull();
    clock += HOUR;
    expect((await desk.policyStatus('p1')).policy).toEqual(TWO_APPROVALS);
  });

  it('a policy file edited on disk is refused until a quorum approves a policy again', async () => {
    const { alice } = await threeOperators();
    expect((await desk.policyStatus('p1')).refused).toBeNull();
    const path = join(dir, 'policies', 'p1.json');
    const copy = JSON.parse(readFileSync(path, 'utf8'));
    copy.policy.rules[0].action = 'allow';
    writeFileSync(path, JSON.stringify(copy));
    expect((await desk.policyStatus('p1')).refused).toMatch(/changed outside the desk/);
    await expect(desk.draftTicket('p1', 'r1', 'withdrawal', BODY, verdictOf(TWO_APPROVALS))).rejects.toThrow(/changed outside the desk/);
    // A restart does not forget: the copy still differs from the records.
    await store.close();
    desk = open();
    expect((await desk.policyStatus('p1')).refused).toMatch(/changed outside the desk/);
    await sign(desk.policyTicket('p1', TWO_APPROVALS), alice, 'alice');
    clock += 24 * HOUR;
    expect(await desk.policyStatus('p1')).toMatchObject({ refused: null, policy: TWO_APPROVALS });
  });

  it('the first operator is made once; later ones go through a proposal', async () => {
    await desk.createFirstOperator('Alice', PASS.alice);
    await expect(desk.createFirstOperator('Eve', 'eve passphrase 1')).rejects.toThrow(/operators already/);
  });

  it('a record written around the desk with a forged signature stops governance when read', async () => {
    const alice = await desk.createFirstOperator('Alice', PASS.alice);
    const eve = await createOperatorKey('Alice', 'eve passphrase 1', clock, FAST);
    const payload = JSON.stringify({ kind: 'withdrawal', body: BODY, verdict: verdictOf(TWO_APPROVALS) });
    const forged = await signAs(eve, 'eve passphrase 1', textFor('propose', 'rf', 'request', payload, 'p1'));
    await store.append(
      {
        type: 'proposal',
        ref: 'rf',
        what: 'request',
        profile: 'p1',
        payload,
        signed: { action: 'propose', operator: alice, name: 'Alice', signature: forged },
      },
      1,
    );
    await store.close();
    desk = open();
    await expect(desk.load()).rejects.toThrow(/record 2 \(proposal\) does not check: Alice's signature does not verify/);
  });
});

describe('batches', () => {
  const batch = (refs: string[], verdict: Verdict) => ({
    batch: 'payouts' as const,
    title: 'Payouts',
    source: { file: 'p.csv', sha256: 'b'.repeat(64) },
    verdict,
    rows: refs.map((ref) => ({ ref, kind: 'withdrawal' as const, body: { ...BODY, withdraw_order_id: ref } })),
    totals: [{ currency: 'USDT', amount: '50' }],
  });

  it('need the quorum of their verdict, from operators other than the drafter when it says so, and are then ready to send', async () => {
    const { alice, bob, carol } = await threeOperatorsUnderTwoApprovals();
    await sign(desk.draftBatchTicket('p1', 'b1', batch(['r1', 'r2'], verdictOf(TWO_APPROVALS))), alice, 'alice');
    await expect(sign(desk.decisionTicket('b1', 'approve'), alice, 'alice')).rejects.toThrow(/drafted this request/);
    await sign(desk.decisionTicket('b1', 'approve'), bob, 'bob');
    expect(await desk.readyToSend('p1')).toEqual([]);
    await sign(desk.decisionTicket('b1', 'approve'), carol, 'carol');
    expect((await desk.readyToSend('p1')).map((p) => p.ref)).toEqual(['b1']);
  });

  it('refuse a row id used before, a blocked verdict, and a malformed payload, storing nothing', async () => {
    const alice = await desk.createFirstOperator('Alice', PASS.alice);
    await sign(
      desk.draftBatchTicket(
        'p1',
        'b1',
        batch(['r1', 'r2'], verdictOf({ rules: [{ id: 'one', match: {}, action: 'require', approvals: 1, drafter_may_approve: true }] })),
      ),
      alice,
      'alice',
    );
    const allow = verdictOf({ rules: [{ id: 'rest', match: {}, action: 'allow' }] });
    await expect(sign(desk.draftBatchTicket('p1', 'b2', batch(['r3', 'r2'], allow)), alice, 'alice')).rejects.toThrow(
      /row id r2 is used twice/,
    );
    await expect(sign(desk.draftBatchTicket('p1', 'b3', batch(['r4', 'r4'], allow)), alice, 'alice')).rejects.toThrow(
      /row id r4 is used twice/,
    );
    await expect(
      sign(desk.draftTicket('p1', 'r1', 'withdrawal', { ...BODY, withdraw_order_id: 'r1' }, allow), alice, 'alice'),
    ).rejects.toThrow(/id r1 is a batch row's already/);
    await expect(desk.draftBatchTicket('p1', 'b4', batch(['r5'], verdictOf({ rules: [] })))).rejects.toThrow(/policy blocks this batch/);
    await expect(desk.draftBatchTicket('p1', 'b5', { ...batch(['r6'], allow), rows: [] })).rejects.toThrow();
    expect([...(await desk.load()).proposals.keys()]).toEqual(['b1']);
  });
});
