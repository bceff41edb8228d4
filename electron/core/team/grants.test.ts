import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL } from './pgStore.ts';
import { migrate } from './migrate.ts';
import { DIGEST_SQL } from './recheck.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';

// The roles of a real team (docs/team.md §A team on a managed PostgreSQL): an owner that runs the
// schema's migrations, desks that read, append and keep send leases but can edit or delete no record,
// and an auditor that only reads. The grants written there are the ones given here.

const missing = postgresMissing();

/** The grants docs/team.md gives each role, after the owner has run the migrations. */
const GRANTS = (db: string) => [
  `GRANT CONNECT ON DATABASE ${db} TO team_desk, team_auditor`,
  'GRANT USAGE ON SCHEMA public TO team_desk, team_auditor',
  'GRANT SELECT ON desk_migrations TO team_desk, team_auditor',
  'GRANT SELECT, INSERT ON governance_records TO team_desk',
  'GRANT SELECT, INSERT, UPDATE ON send_leases TO team_desk',
  'GRANT SELECT ON governance_records, send_leases TO team_auditor',
];

describe.skipIf(missing !== null)(`a team's database roles${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  it('lets a desk read, append, notify and keep leases, never edit or delete; lets an auditor only read', async () => {
    const url = await server.newDatabase('grants');
    const as = async (user: string) => {
      const u = new URL(url);
      u.username = user;
      const c = new pg.Client({ connectionString: u.toString() });
      // The server ends its connections when it stops: not a failure of the test's.
      c.on('error', () => {});
      await c.connect();
      return c;
    };
    const admin = await as('desk');
    try {
      await admin.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
      for (const role of ['team_owner', 'team_desk', 'team_auditor']) await admin.query(`CREATE ROLE ${role} LOGIN`);
      await admin.query('ALTER SCHEMA public OWNER TO team_owner');
      await admin.query('ALTER DATABASE grants OWNER TO team_owner');
    } finally {
      await admin.end();
    }
    const owner = await as('team_owner');
    try {
      expect(await migrate(owner)).toEqual(['0001_governance_records', '0002_send_leases']);
      for (const g of GRANTS('grants')) await owner.query(g);
    } finally {
      await owner.end();
    }

    const desk = await as('team_desk');
    try {
      // A desk runs the migrations on every connect: with the schema up to date, that needs no CREATE.
      expect(await migrate(desk)).toEqual([]);
      await desk.query(`LISTEN ${CHANNEL}`);
      await desk.query("INSERT INTO governance_records (seq, entry, sig) VALUES (1, '{}', 's')");
      await desk.query('SELECT pg_notify($1, $2)', [CHANNEL, '1']);
      expect((await desk.query(DIGEST_SQL)).rows).toHaveLength(1);
      await desk.query("INSERT INTO send_leases (ref, request, profile, owner, expires_at) VALUES ('w', 'r', 'p', 'desk-a', now())");
      await desk.query("UPDATE send_leases SET finished = true WHERE ref = 'w'");
      await expect(desk.query("UPDATE governance_records SET entry = 'x'")).rejects.toThrow(/permission denied/);
      await expect(desk.query('DELETE FROM governance_records')).rejects.toThrow(/permission denied/);
      await expect(desk.query('CREATE TABLE t (x int)')).rejects.toThrow(/permission denied/);
    } finally {
      await desk.end();
    }

    const auditor = await as('team_auditor');
    try {
      expect(await migrate(auditor)).toEqual([]);
      expect((await auditor.query(DIGEST_SQL)).rows).toHaveLength(1);
      expect((await auditor.query('SELECT ref FROM send_leases')).rows).toEqual([{ ref: 'w' }]);
      await expect(auditor.query("INSERT INTO governance_records (seq, entry, sig) VALUES (2, '{}', 's')")).rejects.toThrow(
        /permission denied/,
      );
      await expect(auditor.query("UPDATE send_leases SET owner = 'x'")).rejects.toThrow(/permission denied/);
    } finally {
      await auditor.end();
    }
  }, 60_000);
});
