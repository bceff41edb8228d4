import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Approvals } from '../approvals/service.ts';
import { StoreConflictError, type GovernanceStore } from '../approvals/store.ts';
import { textFor } from '../governance/state.ts';
import { createOperatorKey, signAs, type OperatorKey } from '../operators/keys.ts';
import { openTestDesk } from '../approvals/testkit/desk.ts';
import { CHANNEL, PgGovernanceStore, TeamStoreOfflineError, TeamTamperError } from './pgStore.ts';
import { deskPrivateKey, linkOf, newDeskKey, signEntry } from './envelope.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import { freezeBy, openTeamDesk, TEAM_RULES, TEAM_SCRYPT, type TeamDesk } from './testkit/teamDesks.ts';

// Two desks, each with its own folder, on one real PostgreSQL: positioned appends, NOTIFY between
// desks, and rows written around the desks (by SQL, with no operator's or desk's key) refused on read.

const missing = postgresMissing();
const ALICE = 'alice passphrase 1';

describe.skipIf(missing !== null)(`the team store on PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: TestPostgres;
  const cleanup: (() => Promise<void>)[] = [];
  let url: string;
  let a: TeamDesk;
  let b: TeamDesk;
  let alice: OperatorKey;
  let n = 0;

  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  // Desk A founds the team with Alice; Alice's sealed key is at desk B too, and vouches for it there.
  beforeEach(async () => {
    url = await server.newDatabase(`team_${++n}`);
    a = await openTeamDesk(url, cleanup);
    b = await openTeamDesk(url, cleanup);
    const id = await a.approvals.createFirstOperator('alice', ALICE);
    alice = (await a.store.operatorKey(id))!;
    await b.store.putOperatorKey(alice);
    await b.store.enrol(alice, ALICE);
    expect(await b.store.read()).toHaveLength(1);
  });
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await c.query(text, values);
    } finally {
      await c.end();
    }
  }

  it('lets exactly one of two desks appending at one position win; the other gets a conflict', async () => {
    for (let at = 1; at <= 8; at++) {
      const [x, y] = [await freezeBy(alice, ALICE, `a${at}`), await freezeBy(alice, ALICE, `b${at}`)];
      const results = await Promise.allSettled([a.store.append(x, at), b.store.append(y, at)]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason).toBeInstanceOf(StoreConflictError);
      const seenA = await a.store.read();
      const seenB = await b.store.read();
      expect(seenA).toHaveLength(at + 1);
      expect(seenB.map((r) => r.seq + (r.type === 'freeze' ? r.reason : ''))).toEqual(
        seenA.map((r) => r.seq + (r.type === 'freeze' ? r.reason : '')),
      );
    }
  });

  it('places a signed record again when another desk appended first, checked against the records as they now stand', async () => {
    // Desk B's approvals as they stood before desk A's append: no notice reaches them in between.
    const s = b.store;
    const deaf: GovernanceStore = {
      read: () => s.read(),
      append: (body, after) => s.append(body, after),
      operatorKey: (id) => s.operatorKey(id),
      putOperatorKey: (k) => s.putOperatorKey(k),
      readPolicyFile: (p) => s.readPolicyFile(p),
      writePolicyFile: (p, t) => s.writePolicyFile(p, t),
      enrol: (k, p) => s.enrol(k, p),
      close: async () => {},
    };
    const stale = new Approvals({ store: deaf, rules: TEAM_RULES, credential: 'none', scrypt: TEAM_SCRYPT });
    expect((await stale.load()).seq).toBe(1);
    const bob = await a.approvals.proposeOperator('bob', 'bob passphrase 22', alice.id, ALICE);
    const carol = await stale.proposeOperator('carol', 'carol passphrase 3', alice.id, ALICE);
    const seen = await b.store.read();
    expect(seen.map((r) => (r.type === 'proposal' ? (JSON.parse(r.payload) as { id: string }).id : r.type))).toEqual([
      'operator_created',
      bob,
      carol,
    ]);
    expect((await stale.load()).operators.has(bob)).toBe(true);
  });

  it('has a desk vouched for again once the operator who vouched for it is removed', async () => {
    // Bob joins and vouches for a third desk; then the team removes him, and Alice signs at that desk.
    const bob = await a.approvals.proposeOperator('bob', 'bob passphrase 22', alice.id, ALICE);
    const c = await openTeamDesk(url, cleanup);
    await c.store.putOperatorKey((await a.store.operatorKey(bob))!);
    await c.store.putOperatorKey(alice);
    await c.store.enrol((await c.store.operatorKey(bob))!, 'bob passphrase 22');
    await c.store.append(await freezeBy((await c.store.operatorKey(bob))!, 'bob passphrase 22', 'bob at desk C'), 2);
    const removal = await a.approvals.removeOperatorTicket(bob);
    await a.approvals.sign(removal.id, alice.id, ALICE);
    expect((await a.approvals.load()).operators.get(bob)!.removed_from).not.toBeNull();

    const carol = await c.approvals.proposeOperator('carol', 'carol passphrase 3', alice.id, ALICE);
    // Desk C's rows before the removal and after it verify at every desk: the later ones under Alice's word.
    for (const desk of [a, b, c]) {
      const last = (await desk.store.read()).at(-1)!;
      expect(last.type === 'proposal' && (JSON.parse(last.payload) as { id: string }).id).toBe(carol);
    }
  });

  it('tells the other desk of an append: its approvals are read again and show the freeze', async () => {
    await b.approvals.load();
    expect(b.approvals.cached()!.frozen).toBeNull();
    await a.store.append(await freezeBy(alice, ALICE, 'audit at 3pm'), 1);
    await vi.waitFor(() => expect(b.approvals.cached()?.frozen).toMatchObject({ by: 'alice', reason: 'audit at 3pm' }));
    expect(b.changes.at(-1)).toBeNull();
  });

  it('goes on after the server is stopped and started again: appends land and the other desk hears of them', async () => {
    await b.approvals.load();
    await server.stop();
    // Desk B loses its notices: it reads at once, finds the store offline, and keeps no state to send from.
    // A busy machine may take more than waitFor's default second to notice the lost connection.
    await vi.waitFor(() => expect(b.changes.at(-1)).toBeInstanceOf(TeamStoreOfflineError), { timeout: 10_000 });
    expect(b.approvals.cached()).toBeNull();
    await expect(b.approvals.load()).rejects.toThrow(/^The team store is offline \(.+\)\. Nothing governed is sent until it is back\.$/);
    await expect(a.store.append(await freezeBy(alice, ALICE, 'while offline'), 1)).rejects.toBeInstanceOf(TeamStoreOfflineError);
    await server.start();
    await vi.waitFor(
      async () => expect(await a.store.append(await freezeBy(alice, ALICE, 'after the restart'), 1)).toMatchObject({ seq: 2 }),
      {
        timeout: 5_000,
      },
    );
    await vi.waitFor(() => expect(b.approvals.cached()?.frozen).toMatchObject({ reason: 'after the restart' }), { timeout: 5_000 });
    expect(await b.store.read()).toHaveLength(2);
  });

  it("founds a team from a desk's own records; a joining desk folds the same operators, and no second founding is taken", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-local-'));
    const local = openTestDesk(dir, { now: Date.now() - 3_600_000 });
    cleanup.push(async () => {
      await local.store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const first = await local.desk.createFirstOperator('alice', ALICE);
    const bob = await local.desk.proposeOperator('bob', 'bob passphrase 22', first, ALICE);
    local.clock.now += 60_000;
    const records = await local.store.read();
    const founder = (await local.store.operatorKey(first))!;

    const url2 = await server.newDatabase(`found_${n}`);
    const founding = await PgGovernanceStore.open({ url: url2, dir, rules: TEAM_RULES });
    cleanup.push(() => founding.close());
    await expect(founding.found(records.slice(1), founder, ALICE)).rejects.toThrow(/founded by the desk's first operator/);
    await founding.found(records, founder, ALICE);

    const joiner = await openTeamDesk(url2, cleanup);
    const seen = await joiner.store.read();
    expect(seen.map((r) => [r.seq, r.type, r.at])).toEqual(records.map((r) => [r.seq, r.type, r.at]));
    const ops = (await joiner.approvals.load()).operators;
    expect([...ops.keys()].sort()).toEqual([first, bob].sort());
    // Bob waits out the same cooling-off at every desk: the times copied are the times signed.
    expect(ops.get(bob)!.active_from).toBe((await local.desk.load()).operators.get(bob)!.active_from);
    expect(ops.get(bob)!.active_from).toBeGreaterThan(Date.now());
    await expect(founding.found(records, founder, ALICE)).rejects.toThrow(/has records already/);
  });

  describe('rows written around the desks', () => {
    beforeEach(async () => {
      await a.store.append(await freezeBy(alice, ALICE, 'first'), 1);
      await a.store.append(await freezeBy(alice, ALICE, 'second'), 2);
      expect(await b.store.read()).toHaveLength(3);
    });

    async function refusedByBoth(pattern: RegExp): Promise<void> {
      for (const desk of [a, b]) {
        const read = desk.store.read();
        await expect(read).rejects.toBeInstanceOf(TeamTamperError);
        await expect(desk.store.read()).rejects.toThrow(pattern);
      }
      // Whoever can write the table can also NOTIFY: the desk then reads, refuses, and keeps no state to send from.
      await sql('SELECT pg_notify($1, $2)', [CHANNEL, '99']);
      await vi.waitFor(() => expect(b.changes.at(-1)).toBeInstanceOf(TeamTamperError));
      expect(b.approvals.cached()).toBeNull();
      await expect(b.approvals.load()).rejects.toThrow(pattern);
    }

    it('refuses a record inserted by SQL with a desk key no operator vouched for', async () => {
      const { rows } = await sql('SELECT entry FROM governance_records WHERE seq = 3');
      const last = JSON.parse(rows[0].entry as string) as Record<string, unknown>;
      const forger = newDeskKey();
      const forged = JSON.stringify({
        ...last,
        seq: 4,
        prev: linkOf(rows[0].entry as string),
        body: { ...(last.body as object), reason: 'forged' },
        desk: { ...(last.desk as object), key: forger.publicKey },
      });
      await sql('INSERT INTO governance_records (seq, entry, sig) VALUES (4, $1, $2)', [
        forged,
        signEntry(deskPrivateKey(forger.privatePem), forged),
      ]);
      await refusedByBoth(/record 4 is refused as tampering: its desk was not vouched for by an operator in force/);
    });

    it('refuses an operator added by SQL with a stolen desk key but no quorum', async () => {
      // Whoever copied desk A's key file can sign rows as desk A; an operator still needs the change quorum.
      const stolen = JSON.parse(readFileSync(join(a.dir, 'team', 'desk-key.json'), 'utf8')) as { private: string };
      const { rows } = await sql('SELECT entry FROM governance_records WHERE seq = 3');
      const last = JSON.parse(rows[0].entry as string) as Record<string, unknown>;
      const mallory = await createOperatorKey('mallory', 'mallory passphrase', Date.now(), TEAM_SCRYPT);
      const signature = await signAs(
        mallory,
        'mallory passphrase',
        textFor('create', mallory.id, 'operator', JSON.stringify({ name: 'mallory', public_key: mallory.public_key })),
      );
      const body = {
        type: 'operator_created',
        ref: mallory.id,
        name: 'mallory',
        public_key: mallory.public_key,
        credential: 'none',
        signed: { action: 'create', operator: mallory.id, name: 'mallory', signature },
      };
      const forged = JSON.stringify({ ...last, seq: 4, prev: linkOf(rows[0].entry as string), body });
      await sql('INSERT INTO governance_records (seq, entry, sig) VALUES (4, $1, $2)', [
        forged,
        signEntry(deskPrivateKey(stolen.private), forged),
      ]);
      await refusedByBoth(/record 4 is refused as tampering: operator_created does not check: this desk has operators already/);
    });

    it('refuses a recovery, which no other desk could check, even under a desk key', async () => {
      const body = { type: 'recovery', ref: 'r1', credential: 'vault', reason: 'we are wedged', cooling_off_ms: 0 } as const;
      await expect(a.store.append(body, 3)).rejects.toThrow(/a recovery is not a team record/);
      const stolen = JSON.parse(readFileSync(join(a.dir, 'team', 'desk-key.json'), 'utf8')) as { private: string };
      const { rows } = await sql('SELECT entry FROM governance_records WHERE seq = 3');
      const last = JSON.parse(rows[0].entry as string) as Record<string, unknown>;
      const forged = JSON.stringify({ ...last, seq: 4, prev: linkOf(rows[0].entry as string), body });
      await sql('INSERT INTO governance_records (seq, entry, sig) VALUES (4, $1, $2)', [
        forged,
        signEntry(deskPrivateKey(stolen.private), forged),
      ]);
      await refusedByBoth(/record 4 is refused as tampering: a recovery is not a team record/);
    });

    it("refuses a row whose prev does not link to the record before it, though its desk's and operator's signatures verify", async () => {
      // Whoever copied desk A's key file can sign rows as desk A: only the chain says where a row belongs.
      const stolen = JSON.parse(readFileSync(join(a.dir, 'team', 'desk-key.json'), 'utf8')) as { private: string };
      const { rows } = await sql('SELECT seq, entry FROM governance_records WHERE seq IN (2, 3) ORDER BY seq');
      const last = JSON.parse(rows[1].entry as string) as Record<string, unknown>;
      // A fork: record 4 names record 2 as the one before it, as if record 3 were not there.
      const body = await freezeBy(alice, ALICE, 'forked');
      const forged = JSON.stringify({ ...last, seq: 4, prev: linkOf(rows[0].entry as string), body });
      await sql('INSERT INTO governance_records (seq, entry, sig) VALUES (4, $1, $2)', [
        forged,
        signEntry(deskPrivateKey(stolen.private), forged),
      ]);
      // A desk joining now has no pin of what it saw before: the link alone refuses the row.
      const c = await openTeamDesk(url, cleanup);
      await expect(c.store.read()).rejects.toThrow(/record 4 is refused as tampering: it does not follow the record before it/);
      expect((await a.store.audit()).refused).toEqual({
        seq: 4,
        reason: expect.stringMatching(/^it does not follow the record before it/),
      });
      await refusedByBoth(/record 4 is refused as tampering: it does not follow the record before it/);
    });

    it('refuses a record edited by SQL', async () => {
      await sql(`UPDATE governance_records SET entry = replace(entry, '"reason":"first"', '"reason":"fiRst"') WHERE seq = 2`);
      await refusedByBoth(/record 2 is refused as tampering: its desk's signature does not verify/);
    });

    it('refuses a chain with a row deleted in the middle', async () => {
      await sql('DELETE FROM governance_records WHERE seq = 2');
      await refusedByBoth(/record 2 is refused as tampering: it is missing/);
    });

    it('refuses a chain whose last row was deleted, at the desks that had seen it', async () => {
      await sql('DELETE FROM governance_records WHERE seq = 3');
      await refusedByBoth(/record 3 is refused as tampering: it was removed/);
    });

    it('refuses a reordered sequence', async () => {
      await sql('UPDATE governance_records SET seq = seq + 100 WHERE seq IN (2, 3)');
      await sql('UPDATE governance_records SET seq = CASE seq WHEN 102 THEN 3 ELSE 2 END WHERE seq > 100');
      await refusedByBoth(/record 2 is refused as tampering: it was written as record 3/);
    });
  });
});
