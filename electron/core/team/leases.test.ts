import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LEASE_MS, PgSendLeases, takeLeases } from './leases.ts';
import { migrate } from './migrate.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';

// The send leases on a real PostgreSQL (the team store's own migrations): the store itself refuses to
// hand a lease that has not run out by its clock to another desk, and a renewal says whose a lease is
// and, to its owner, how long it now has.

const missing = postgresMissing();
const MS = DEFAULT_LEASE_MS;

describe.skipIf(missing !== null)(`the send leases on PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  let n = 0;
  let deskA: PgSendLeases;
  let deskB: PgSendLeases;

  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  // A fresh database per test, its schema brought up by migrate() as the team store does; desk A holds r1.
  beforeEach(async () => {
    pool = new pg.Pool({ connectionString: await server.newDatabase(`leases_${++n}`), max: 2 });
    // A connection the server ends while stopping after the last test is no failure of the test's.
    pool.on('error', () => {});
    const client = await pool.connect();
    try {
      await migrate(client);
      await takeLeases(client, ['r1'], 'req1', 'p1', 'desk-a', MS);
    } finally {
      client.release();
    }
    const q = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => pool.query<R>(text, values);
    deskA = new PgSendLeases(q, 'desk-a', MS);
    deskB = new PgSendLeases(q, 'desk-b', MS);
  });
  afterEach(async () => {
    await pool.end();
  });

  const row = async () =>
    (
      await pool.query<{ owner: string; taken_over: number; left_ms: number }>(
        `SELECT owner, taken_over, (extract(epoch FROM expires_at - now()) * 1000)::float8 AS left_ms FROM send_leases WHERE ref = 'r1'`,
      )
    ).rows[0]!;
  const expire = () => pool.query(`UPDATE send_leases SET expires_at = now() - interval '1 second' WHERE ref = 'r1'`);

  describe('claim', () => {
    it('is refused by the store while the lease has not run out, and nothing about the lease changes', async () => {
      expect(await deskB.claim('r1', 'desk-a')).toBe(false);
      expect(await row()).toMatchObject({ owner: 'desk-a', taken_over: 0 });
    });

    it('takes a lease that has run out, once: the claimant holds it for a full lease', async () => {
      await expire();
      expect(await deskB.claim('r1', 'desk-a')).toBe(true);
      const taken = await row();
      expect(taken).toMatchObject({ owner: 'desk-b', taken_over: 1 });
      expect(taken.left_ms).toBeGreaterThan(MS - 5_000);
      // The lease is desk B's now and running: neither a second claim from desk A's lease nor desk A takes it back.
      expect(await deskB.claim('r1', 'desk-a')).toBe(false);
      expect(await deskA.claim('r1', 'desk-b')).toBe(false);
    });

    it('is refused when the lease has another owner than the one the claimant saw, or is finished', async () => {
      await expire();
      expect(await deskB.claim('r1', 'desk-c')).toBe(false);
      await pool.query(`UPDATE send_leases SET finished = true WHERE ref = 'r1'`);
      expect(await deskB.claim('r1', 'desk-a')).toBe(false);
      expect((await row()).owner).toBe('desk-a');
    });
  });

  describe('renew', () => {
    it("answers its owner 'mine' with about a full lease left, and moves the expiry on", async () => {
      await pool.query(`UPDATE send_leases SET expires_at = now() + interval '1 second' WHERE ref = 'r1'`);
      const r = await deskA.renew('r1');
      expect(r.holder).toBe('mine');
      expect(r.leftMs).toBeGreaterThan(MS - 5_000);
      expect(r.leftMs).toBeLessThanOrEqual(MS);
      expect((await row()).left_ms).toBeGreaterThan(MS - 5_000);
    });

    it("answers another desk 'other' with nothing left, and leaves the expiry as it was", async () => {
      await pool.query(`UPDATE send_leases SET expires_at = now() + interval '10 seconds' WHERE ref = 'r1'`);
      expect(await deskB.renew('r1')).toEqual({ holder: 'other', leftMs: 0 });
      const after = await row();
      expect(after.owner).toBe('desk-a');
      expect(after.left_ms).toBeLessThanOrEqual(10_000);
    });

    it("answers 'none' for a ref no lease is held for", async () => {
      expect(await deskA.renew('no-such-ref')).toEqual({ holder: 'none', leftMs: 0 });
    });
  });
});
