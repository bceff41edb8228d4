import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../testkit/sandbox.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { startDeskChild } from './testkit/deskChild.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import {
  aliceAndBob,
  bobApproves,
  draftWithdrawal,
  intentAt,
  openTeamCore,
  twoApprovalsFor,
  withdrawalsAtExchange,
} from './testkit/sandboxTeam.ts';

// A team whose exchange is slower than the sending desk's deadline (docs/team.md §Send leases): the
// Sandbox holds desk A's POST /withdrawals past A's abort and commits it later. Whether A is SIGKILLed
// mid-send or its lease is made to expire under it (its renewals kept in the past by a trigger, as a
// writer of the team's database could), desk B takes the lease over and finds the write in doubt: it
// looks the id up until the doubt ends, finds the held withdrawal once it lands, and sends nothing.

const DEADLINE_MS = 2_000;
const SETTLE_MS = 6_000;
/** Past A's deadline, inside its deadline plus the settle window. */
const HOLD_MS = 6_500;
const LEASE_MS = 4_000;
const WRITES = { requestTimeoutMs: DEADLINE_MS, settleMs: SETTLE_MS };
/** For the lease made to expire: a longer hold (inside a longer settle window) leaves desk B several lease rounds. */
const LONG_WRITES = { requestTimeoutMs: DEADLINE_MS, settleMs: 15_000 };
const LONG_HOLD_MS = 12_000;
const missing = postgresMissing();

describe.skipIf(missing !== null)(`a team whose exchange is slower than the deadline${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-slow', { limits: false });
  let server: TestPostgres;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await adminCall(sb.creds, 'DELETE', '/faults');
  });

  async function holdNextWithdrawal(holdMs = HOLD_MS): Promise<void> {
    await adminCall(sb.creds, 'POST', '/faults', {
      kind: 'latency',
      path: '/withdrawals',
      method: 'POST',
      every: 1,
      times: 1,
      latency_ms: holdMs,
    });
  }

  /** Waits out any resend the rule failed to stop, then the exchange's own count. */
  async function heldAtExchange(ref: string, holdMs = HOLD_MS): Promise<number> {
    await new Promise((r) => setTimeout(r, holdMs + 500));
    return (await withdrawalsAtExchange(sb, ref)).length;
  }

  it('a take-over after SIGKILL mid-send waits out the doubt and finds the held withdrawal', async () => {
    const url = await server.newDatabase('slow_kill');
    const a = openTeamCore(sb, 'a', { url, leaseMs: LEASE_MS }, undefined, WRITES);
    const bLog: string[] = [];
    const b = openTeamCore(sb, 'b', { url, leaseMs: LEASE_MS }, (l) => bLog.push(l), WRITES);
    let ref: string;
    let bob: string;
    try {
      const ids = await aliceAndBob(a, b);
      bob = ids.bob;
      await twoApprovalsFor(a, ids.alice);
      ref = await draftWithdrawal(a, ids.alice, '81.04');
    } finally {
      await a.close();
    }
    try {
      await holdNextWithdrawal();
      const { child, exited } = await startDeskChild([
        join(sb.dir, 'a'),
        sb.credentialsPath,
        url,
        String(LEASE_MS),
        String(DEADLINE_MS),
        String(SETTLE_MS),
      ]);
      children.push(child);
      await bobApproves(b, bob, ref);
      // Desk A's attempt is out and held: the Sandbox has counted it, nothing is committed yet.
      await expect.poll(() => faultFired(sb), { timeout: 20_000, interval: 50 }).toBe(true);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(await withdrawalsAtExchange(sb, ref)).toHaveLength(0);

      // Desk B takes the lease over and, while in doubt, says so: unconfirmed, with when the doubt ends.
      await expect
        .poll(async () => (await intentAt(b, ref))?.state, { timeout: 30_000, interval: 100 })
        .toMatch(/^(unconfirmed|accepted)$/);
      await expect
        .poll(async () => (await intentAt(b, ref))?.state, { timeout: 30_000, interval: 200 })
        .toBe('accepted')
        .catch((e: Error) => {
          throw new Error(`${e.message}\ndesk B's last log lines:\n${bLog.slice(-12).join('\n')}`, { cause: e });
        });
      expect((await intentAt(b, ref))!.note).toMatch(/^taken over from desk-/);
      expect(await heldAtExchange(ref)).toBe(1);
    } finally {
      await b.close();
    }
  }, 150_000);

  it('a lease expired under a slow send is taken over, and the write still lands once', async () => {
    const url = await server.newDatabase('slow_expiry');
    const a = openTeamCore(sb, 'a2', { url, leaseMs: LEASE_MS }, undefined, LONG_WRITES);
    const bLog: string[] = [];
    const b = openTeamCore(sb, 'b2', { url, leaseMs: LEASE_MS }, (l) => bLog.push(`${new Date().toISOString()} ${l}`), LONG_WRITES);
    const db = new pg.Client({ connectionString: url });
    db.on('error', () => {});
    await db.connect();
    try {
      const ids = await aliceAndBob(a, b);
      await twoApprovalsFor(a, ids.alice);
      const ref = await draftWithdrawal(a, ids.alice, '61.67');
      await holdNextWithdrawal(LONG_HOLD_MS);
      await bobApproves(b, ids.bob, ref);
      // Desk A takes the lease with the hand-over and sends; once its attempt is out, its renewals stop
      // counting: a trigger (as a writer of the team's database could add) keeps every renewal of A's own
      // lease in the past, so that desk B's next lease round finds it expired while A's send is held.
      // (Pushing the row back on a timer raced A's renewals, whose period B's rounds share.)
      await expect.poll(() => faultFired(sb), { timeout: 20_000, interval: 50 }).toBe(true);
      const owner = (await db.query<{ owner: string }>('SELECT owner FROM send_leases WHERE ref = $1', [ref])).rows[0]!.owner;
      await db.query(`CREATE FUNCTION keep_expired() RETURNS trigger AS $$ BEGIN
          IF OLD.owner = '${owner}' AND NEW.owner = OLD.owner THEN NEW.expires_at := now() - interval '1 second'; END IF;
          RETURN NEW; END $$ LANGUAGE plpgsql`);
      await db.query('CREATE TRIGGER keep_expired BEFORE UPDATE ON send_leases FOR EACH ROW EXECUTE FUNCTION keep_expired()');
      await db.query("UPDATE send_leases SET expires_at = now() - interval '1 second' WHERE ref = $1", [ref]);
      await expect
        .poll(
          async () =>
            (await db.query<{ taken_over: number }>('SELECT taken_over FROM send_leases WHERE ref = $1', [ref])).rows[0]?.taken_over,
          {
            timeout: 30_000,
            interval: 100,
          },
        )
        .toBeGreaterThan(0)
        .catch(async (e: Error) => {
          const rows = JSON.stringify(
            (await db.query('SELECT ref, owner, expires_at, now() AS now, finished, taken_over FROM send_leases')).rows,
          );
          throw new Error(`${e.message}\nlease rows: ${rows}\ndesk B:\n${bLog.slice(-12).join('\n')}`, { cause: e });
        });
      await db.query('DROP TRIGGER keep_expired ON send_leases');
      // Both desks end knowing the withdrawal landed; the exchange holds it once.
      for (const desk of [a, b])
        await expect.poll(async () => (await intentAt(desk, ref))?.state, { timeout: 30_000, interval: 200 }).toBe('accepted');
      expect(await heldAtExchange(ref, LONG_HOLD_MS)).toBe(1);
    } finally {
      await db.end();
      await a.close();
      await b.close();
    }
  }, 150_000);

  it('a desk whose lease another desk now holds does not resend, even once the write is proven absent', async () => {
    // The hold outlasts desk A's deadline and settle window: A proves the id absent and would send again,
    // but the lease row now names another desk (a take-over it did not see), so its renewal refuses.
    const url = await server.newDatabase('slow_fenced');
    const a = openTeamCore(sb, 'a3', { url, leaseMs: LEASE_MS }, undefined, WRITES);
    const b = openTeamCore(sb, 'b3', { url, leaseMs: LEASE_MS }, undefined, WRITES);
    const db = new pg.Client({ connectionString: url });
    db.on('error', () => {});
    await db.connect();
    try {
      const ids = await aliceAndBob(a, b);
      await twoApprovalsFor(a, ids.alice);
      const ref = await draftWithdrawal(a, ids.alice, '43.21');
      // B leaves the team's sending to A: only A's lease rounds run from here on.
      await b.close();
      const fencedHold = DEADLINE_MS + SETTLE_MS + 6_000;
      await holdNextWithdrawal(fencedHold);
      const bb = openTeamCore(sb, 'b3', { url, leaseMs: LEASE_MS }, undefined, WRITES);
      try {
        await bobApproves(bb, ids.bob, ref);
        await expect.poll(() => faultFired(sb), { timeout: 20_000, interval: 50 }).toBe(true);
        await bb.close();
        await db.query("UPDATE send_leases SET owner = 'desk-000000000000', expires_at = now() + interval '1 hour' WHERE ref = $1", [ref]);
        await expect.poll(async () => (await intentAt(a, ref))?.state, { timeout: 30_000, interval: 200 }).toBe('cancelled');
        expect((await intentAt(a, ref))!.reason).toMatch(/another desk of the team took over sending it/);
        expect(await heldAtExchange(ref, fencedHold)).toBe(1);
      } finally {
        await bb.close().catch(() => {});
      }
    } finally {
      await db.end();
      await a.close();
    }
  }, 150_000);
});

/** Whether the Sandbox's latency fault has caught a request (it is held from then). */
async function faultFired(sb: { creds: Parameters<typeof adminCall>[0] }): Promise<boolean> {
  const faults = await adminCall<Array<{ kind: string; fired: number }>>(sb.creds, 'GET', '/faults');
  return faults.some((f) => f.kind === 'latency' && f.fired > 0);
}
