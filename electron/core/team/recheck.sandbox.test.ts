import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalsState, TeamStatus } from '../../../shared/ipc.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { CHANNEL } from './pgStore.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import {
  aliceAndBob,
  bobApproves,
  draftWithdrawal,
  ok,
  openTeamCore,
  twoApprovalsFor,
  withdrawalsAtExchange,
  type Desk,
} from './testkit/sandboxTeam.ts';

// A row already verified, changed in place by someone with the database's password: no new position,
// so no notice names it. Both desks' re-check of every row (recheck.ts, every RECHECK_MS here) turns
// their team card to "tampered", naming the row and the requests it touches, and their Approvals state
// to the refusal; nothing is signed or sent meanwhile, and the store put back turns them online again.

const RECHECK_MS = 400;
/** Within a few intervals: the re-check, then the read it starts. */
const SEEN = { timeout: RECHECK_MS * 6, interval: 100 };
const missing = postgresMissing();

type Row = { seq: number; entry: string; sig: string };

describe.skipIf(missing !== null)(`a verified row changed in the store${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-recheck', { limits: false });
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  const cardOf = async (desk: Desk) => (await ok<TeamStatus>(desk.invoke('teamStatus', {}))).team!;
  const refusalOf = async (desk: Desk) => {
    const r = await desk.invoke('approvalsState', {});
    return r.ok ? 'read' : r.error;
  };

  it('shows an edited amount, an edited time, a deleted middle row and a reorder as tampered at both desks, and a restore as online', async () => {
    const url = await server.newDatabase('recheck');
    const a = openTeamCore(sb, 'a', { url, recheckMs: RECHECK_MS });
    const b = openTeamCore(sb, 'b', { url, recheckMs: RECHECK_MS });
    const db = new pg.Client({ connectionString: url });
    // The server ends its connections when it stops: not a failure of the test's.
    db.on('error', () => {});
    await db.connect();
    try {
      const { alice, bob } = await aliceAndBob(a, b);
      await twoApprovalsFor(a, alice);
      const ref = await draftWithdrawal(a, alice, '17.07');
      const later = await draftWithdrawal(a, alice, '18.08');
      for (const desk of [a, b])
        await expect
          .poll(async () => (await ok<ApprovalsState>(desk.invoke('approvalsState', {}))).items.find((i) => i.ref === later)?.state)
          .toBe('waiting');
      const all = async () => (await db.query<Row>('SELECT seq, entry, sig FROM governance_records ORDER BY seq')).rows;
      const original = await all();
      const target = original.find((r) => r.entry.includes(String.raw`\"amount\":\"17.07\"`))!;
      expect(target.seq).toBeGreaterThan(2);

      const seenTampered = async (seq: number, why: RegExp) => {
        for (const desk of [a, b]) {
          await expect
            .poll(() => cardOf(desk), SEEN)
            .toMatchObject({ state: 'tampered', tampered: { seq, reason: expect.stringMatching(why) } });
          const card = await cardOf(desk);
          expect(card.reason).toMatch(new RegExp(`^Team store record ${seq} is refused as tampering`));
          // The Approvals page's list of what the refused row touches: the 17.07 request's own row is at or after it.
          expect(card.tampered!.requests).toContainEqual({ ref, summary: expect.stringContaining('17.07') });
          expect(await refusalOf(desk)).toMatchObject({
            label: 'TEAM_STORE_TAMPERED',
            message: expect.stringMatching(`^Team store record ${seq} is refused`),
          });
        }
        // Nothing is signed while the store is refused: Bob's approval is not even put to him.
        const decide = await b.invoke('approvalsDecide', { ref, action: 'approve' });
        expect(decide.ok ? 'ticket' : decide.error.label).toBe('TEAM_STORE_TAMPERED');
      };
      const restore = async () => {
        await db.query('DELETE FROM governance_records');
        for (const r of original)
          await db.query('INSERT INTO governance_records (seq, entry, sig) VALUES ($1, $2, $3)', [r.seq, r.entry, r.sig]);
        for (const desk of [a, b]) await expect.poll(async () => (await cardOf(desk)).state, SEEN).toBe('online');
        expect((await ok<ApprovalsState>(a.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)?.state).toBe('waiting');
      };

      // 1. The amount edited in its own row, and a notice naming no newer position (the issue's case).
      await db.query('UPDATE governance_records SET entry = replace(entry, $1, $2) WHERE seq = $3', ['17.07', '97.07', target.seq]);
      await db.query('SELECT pg_notify($1, $2)', [CHANNEL, String(original.length)]);
      await seenTampered(target.seq, /desk's signature does not verify/);
      await restore();

      // 2. Its time edited (an hour later), with no notice at all: the periodic re-check alone finds it.
      const at = (JSON.parse(target.entry) as { at: string }).at;
      const moved = new Date(Date.parse(at) + 3_600_000).toISOString();
      await db.query('UPDATE governance_records SET entry = replace(entry, $1, $2) WHERE seq = $3', [at, moved, target.seq]);
      await seenTampered(target.seq, /desk's signature does not verify/);
      await restore();

      // 3. The row before it deleted: the store goes on past a gap.
      await db.query('DELETE FROM governance_records WHERE seq = $1', [target.seq - 1]);
      await seenTampered(target.seq - 1, /it is missing/);
      await restore();

      // 4. It and the row before it swapped.
      const before = original[target.seq - 2]!;
      await db.query('UPDATE governance_records SET entry = $2, sig = $3 WHERE seq = $1', [before.seq, target.entry, target.sig]);
      await db.query('UPDATE governance_records SET entry = $2, sig = $3 WHERE seq = $1', [target.seq, before.entry, before.sig]);
      await seenTampered(before.seq, new RegExp(`written as record ${target.seq}`));
      await restore();

      // Nothing left for the exchange meanwhile; with the store put back, Bob approves and the amount Alice signed leaves, once.
      for (const r of [ref, later]) expect(await withdrawalsAtExchange(sb, r)).toEqual([]);
      await bobApproves(b, bob, ref);
      await expect.poll(async () => (await withdrawalsAtExchange(sb, ref)).map((w) => w.amount), { timeout: 20_000 }).toEqual(['17.07']);
    } finally {
      await db.end();
      await a.close();
      await b.close();
    }
  }, 120_000);
});
