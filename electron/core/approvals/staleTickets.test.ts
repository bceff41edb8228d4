import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Approvals, Ticket } from './service.ts';
import { HOUR, openTestDesk, PASS, withdrawalBody, type TestDesk } from './testkit/desk.ts';
import { evaluate } from '../policy/engine.ts';

// A ticket whose act holds already (the freeze is on, the freeze was lifted, the role is held, the same
// change waits) or whose request closed is never signed: the signing step refuses it before a passphrase
// opens a key, says why, and stores nothing; the window's sweep takes it out with the same sentence.
// The adversary is a script in the window (or a second operator) signing a stale ticket that slipped past.

let dir: string;
let t: TestDesk;
let desk: Approvals;
let alice: string;
let bob: string;

/** The governance journal's records, as stored: signing a stale ticket must add none. */
const records = (): number => readFileSync(join(dir, 'governance.jsonl'), 'utf8').trim().split('\n').length;
const sign = (x: Ticket, who: string, pass: string) => desk.sign(x.id, who, pass);
const REFUSED = (title: string, why: string) =>
  `"${title}" was withdrawn: ${why}. Nothing was signed and nothing changed.`.replace(/[()[\].]/g, '\\$&');

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stale-'));
  t = openTestDesk(dir, { now: Date.parse('2026-12-01T10:00:00Z') });
  desk = t.desk;
  alice = await desk.createFirstOperator('Alice', PASS.alice);
  bob = await desk.proposeOperator('Bob', PASS.bob, alice, PASS.alice, 'approver');
  t.clock.now += 25 * HOUR;
});
afterEach(async () => {
  await t.store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a stale ticket changes nothing when signed', () => {
  it('a second "Freeze the desk" after the first is signed: refused with why, withdrawn, nothing stored', async () => {
    const first = desk.freezeTicket('first');
    const second = desk.freezeTicket('second');
    await sign(first, alice, PASS.alice);
    const before = records();
    await expect(sign(second, alice, PASS.alice)).rejects.toThrow(
      new RegExp(REFUSED('Freeze the desk', 'the desk is frozen already (by Alice)')),
    );
    expect(records()).toBe(before);
    expect((await desk.load()).frozen?.reason).toBe('first');
    expect(desk.pendingTickets().map((x) => x.id)).not.toContain(second.id);
    expect(desk.withdrawnTickets()[0]).toMatchObject({ id: second.id, why: 'the desk is frozen already (by Alice)' });
    // Asked again, by id: still refused, with the same why.
    await expect(sign(second, alice, PASS.alice)).rejects.toThrow(/was withdrawn: the desk is frozen already/);
  });

  it('an unsigned "Freeze the desk" and a second "Unfreeze" after the freeze was lifted', async () => {
    await sign(desk.freezeTicket('incident'), alice, PASS.alice);
    const unfreeze = desk.unfreezeTicket();
    const again = desk.unfreezeTicket();
    await sign(unfreeze, alice, PASS.alice);
    expect((await desk.load()).frozen).toBeNull();
    const before = records();
    await expect(sign(again, alice, PASS.alice)).rejects.toThrow(/the desk is not frozen \(the freeze was lifted\)\. Nothing was signed/);
    expect(records()).toBe(before);
  });

  it('"Make Bob an admin" twice: the second waits behind the first, then Bob is an admin already', async () => {
    const one = await desk.roleTicket(bob, 'admin');
    const two = await desk.roleTicket(bob, 'admin');
    const three = await desk.roleTicket(bob, 'admin');
    await sign(one, alice, PASS.alice);
    await expect(sign(two, alice, PASS.alice)).rejects.toThrow(/the same change waits for approval already|Bob is an admin already/);
    // Approved by Alice's signature (the default change quorum is 1); in force after the cooling-off.
    t.clock.now += 25 * HOUR;
    const before = records();
    await expect(sign(three, alice, PASS.alice)).rejects.toThrow(new RegExp(REFUSED('Make Bob an admin', 'Bob is an admin already')));
    expect(records()).toBe(before);
  });

  it('approving a request after it was rejected: refused as closed, not signed', async () => {
    const verdict = evaluate(
      { rules: [{ id: 'two', match: {}, action: 'require', approvals: 2 }] },
      { kind: 'withdrawal', currency: 'USDT', amount: '5', destination: 'verified_saved', usdt_price: '1', velocity_24h: '0' },
    );
    await sign(await desk.draftTicket('p1', 'r1', 'withdrawal', withdrawalBody('r1', '5'), verdict), alice, PASS.alice);
    const approve = await desk.decisionTicket('r1', 'approve');
    await sign(await desk.decisionTicket('r1', 'reject', 'wrong amount'), alice, PASS.alice);
    const before = records();
    await expect(sign(approve, bob, PASS.bob)).rejects.toThrow(/was withdrawn: it was rejected by Alice\. Nothing was signed/);
    expect(records()).toBe(before);
  });

  it('the sweep takes out every stale ticket and keeps the rest', async () => {
    await sign(desk.freezeTicket('incident'), alice, PASS.alice);
    const stale = desk.freezeTicket('again');
    const live = desk.unfreezeTicket();
    await desk.sweepTickets();
    expect(desk.pendingTickets().map((x) => x.id)).toEqual([live.id]);
    expect(desk.withdrawnTickets().map((w) => w.id)).toEqual([stale.id]);
  });
});
