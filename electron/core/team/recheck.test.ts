import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from './migrate.ts';
import { TeamTamperError } from './pgStore.ts';
import { DIGEST_SQL, LocalDigests, sameDigests, WINDOW, type WindowDigest } from './recheck.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import { openTeamDesk, type TeamDesk } from './testkit/teamDesks.ts';

// The re-check's two halves agree to the byte (the database's digest per window and the desk's), and a
// desk whose last read was refused reads again at each re-check by itself, so a store put back is seen
// with nobody asking.

const missing = postgresMissing();
const ALICE = 'alice passphrase 1';

describe.skipIf(missing !== null)(`the re-check of every row${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: TestPostgres;
  const cleanup: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  const client = async (url: string) => {
    const c = new pg.Client({ connectionString: url });
    // The server ends its connections when it stops: not a failure of the test's.
    c.on('error', () => {});
    await c.connect();
    cleanup.push(() => c.end());
    return c;
  };

  it('hashes rows in the database as the desk does, across windows and with letters beyond ASCII', async () => {
    const db = await client(await server.newDatabase('digest'));
    await migrate(db);
    const rows = Array.from({ length: WINDOW * 2 + 5 }, (_, i) => ({
      entry: `{"n":${i},"note":"Zürich ${randomBytes(6).toString('hex')} 東京"}`,
      sig: randomBytes(8).toString('base64'),
    }));
    for (const [i, r] of rows.entries())
      await db.query('INSERT INTO governance_records (seq, entry, sig) VALUES ($1, $2, $3)', [i + 1, r.entry, r.sig]);
    const links = rows.map((_, i) => `link-${i}`);
    const local = new LocalDigests();
    const stored = (await db.query<WindowDigest>(DIGEST_SQL)).rows;
    expect(stored.map((w) => w.n)).toEqual([WINDOW, WINDOW, 5]);
    expect(sameDigests(stored, local.of(rows, links))).toBe(true);
    // Asked again, the full windows come from what was hashed before, and still agree.
    expect(sameDigests(stored, local.of(rows, links))).toBe(true);
    // One byte of one row in the first window.
    await db.query("UPDATE governance_records SET entry = replace(entry, 'Zürich', 'Zurich') WHERE seq = 7");
    expect(sameDigests((await db.query<WindowDigest>(DIGEST_SQL)).rows, local.of(rows, links))).toBe(false);
  });

  it('reads again by itself while refused, so a store put back is seen with nobody asking', async () => {
    const url = await server.newDatabase('restore');
    const a: TeamDesk = await openTeamDesk(url, cleanup, { recheckMs: 200 });
    const b: TeamDesk = await openTeamDesk(url, cleanup, { recheckMs: 200 });
    await a.approvals.createFirstOperator('alice', ALICE);
    await b.approvals.load();
    const db = await client(url);
    const { entry } = (await db.query<{ entry: string }>('SELECT entry FROM governance_records WHERE seq = 1')).rows[0]!;
    await db.query("UPDATE governance_records SET entry = replace(entry, 'alice', 'mallory') WHERE seq = 1");
    await expect.poll(() => b.changes.at(-1), { timeout: 3_000 }).toBeInstanceOf(TeamTamperError);
    expect(b.approvals.cached()).toBeNull();
    expect(b.store.tampered()).toMatchObject({ seq: 1 });
    await db.query('UPDATE governance_records SET entry = $1 WHERE seq = 1', [entry]);
    await expect.poll(() => b.changes.at(-1), { timeout: 3_000 }).toBeNull();
    expect(b.approvals.cached()?.operators.size).toBe(1);
    expect(b.store.tampered()).toBeNull();
  });
});
