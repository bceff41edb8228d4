import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresBin } from './teamDb.ts';

// `npm run team:db` starts a PostgreSQL for rehearsal and prints a URL and password that connect; run
// again it finds the same server; where no initdb is found it says how to install one and exits 1.

const script = join(import.meta.dirname, 'teamDb.ts');
const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8', timeout: 120_000 });

it('says how to install PostgreSQL where there is none, and exits 1', () => {
  const r = run(['--bin', '/nonexistent/postgres/bin']);
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/No PostgreSQL found here/);
  expect(r.stderr).toMatch(/sudo apt-get install postgresql/);
  expect(r.stderr).toMatch(/brew install postgresql@15/);
});

const bin = findPostgresBin();

describe.skipIf(bin === null)(
  `npm run team:db${bin ? '' : ' (skipped: no PostgreSQL binary (initdb) on PATH or in /usr/lib/postgresql/*/bin)'}`,
  () => {
    // The server runs as another user under root: it must be able to enter the folder.
    const root = mkdtempSync(join(tmpdir(), 'team-db-test-'));
    chmodSync(root, 0o755);
    const dir = join(root, 'team-db');
    afterAll(() => {
      // Only the server this test started: the one of this data folder.
      spawnSync(join(bin!, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'fast', 'stop'], {
        ...(process.getuid?.() === 0
          ? { uid: Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim() || '65534') }
          : {}),
      });
      rmSync(root, { recursive: true, force: true });
    });

    it('starts a server on 127.0.0.1 whose printed URL and password connect, and finds it again', async () => {
      const first = run(['--dir', dir]);
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(/PostgreSQL for rehearsal started/);
      const url = /^URL: +(\S+)$/m.exec(first.stdout)![1]!;
      const password = /^Password: +(\S+)$/m.exec(first.stdout)![1]!;
      expect(url).toMatch(/^postgresql:\/\/desk@127\.0\.0\.1:\d+\/team$/);
      // node-postgres lets a connection string's absent password override one given beside it (team/url.ts).
      const withPassword = (pw: string) => {
        const u = new URL(url);
        u.password = pw;
        return { connectionString: u.toString() };
      };
      const client = new pg.Client(withPassword(password));
      await client.connect();
      try {
        expect((await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db).toBe('team');
      } finally {
        await client.end();
      }
      // Without the password the server refuses: it is not left open to every local user.
      const open = new pg.Client(withPassword('wrong'));
      await expect(open.connect()).rejects.toThrow(/password authentication failed/);
      await open.end().catch(() => {});
      const again = run(['--dir', dir]);
      expect(again.status).toBe(0);
      expect(again.stdout).toMatch(/PostgreSQL for rehearsal is already running/);
      expect(/^URL: +(\S+)$/m.exec(again.stdout)![1]).toBe(url);
    }, 120_000);
  },
);
