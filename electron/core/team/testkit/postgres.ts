import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

// A real PostgreSQL server for the team store's tests: initdb into a temporary folder, the server on
// 127.0.0.1 at a free port, one database. Only the process started here is ever stopped. PostgreSQL
// refuses to run as root, so under root (CI, these machines) it runs as the `postgres` user when there
// is one, else `nobody`, and the folder is handed to that user.

export interface TestPostgres {
  url: string;
  port: number;
  /** Another empty database on the same server, for a test of its own; its URL. */
  newDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown) and waits for it; the data folder stays for start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes the folder. */
  destroy(): Promise<void>;
}

/** The folder holding initdb and postgres: PATH first, then Debian's /usr/lib/postgresql/<version>/bin (newest). */
export function postgresBinDir(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  return null;
}

/** Why the team store's tests cannot run here, or null when they can. */
export function postgresMissing(): string | null {
  return postgresBinDir() ? null : 'no PostgreSQL binary (initdb) on PATH or in /usr/lib/postgresql/*/bin; scripts/setup.sh installs it';
}

function unprivileged(): { uid: number; gid: number } | null {
  if (userInfo().uid !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const g = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (r.status === 0 && g.status === 0) return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
  }
  throw new Error('PostgreSQL will not run as root, and there is no postgres or nobody user to run it as.');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** With `password`, the server asks the `desk` user for it (scram-sha-256), as a team's server would. */
export async function startPostgres(database = 'team', opts: { password?: string } = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(postgresMissing()!);
  const as = unprivileged();
  const dir = mkdtempSync(join(tmpdir(), 'desk-pg-'));
  if (as) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  const ids = as ? { uid: as.uid, gid: as.gid } : {};
  const auth = ['--auth=trust'];
  if (opts.password !== undefined) {
    const pwfile = join(dir, 'pwfile');
    writeFileSync(pwfile, `${opts.password}\n`, { mode: 0o644 });
    auth.splice(0, 1, '--auth=scram-sha-256', `--pwfile=${pwfile}`);
  }
  const password = opts.password !== undefined ? { password: opts.password } : {};
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'desk', ...auth, '-E', 'UTF8', '--no-sync', '--no-instructions'], {
    encoding: 'utf8',
    cwd: dir,
    ...ids,
  });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const port = await freePort();
  let child: ChildProcess | null = null;
  let log = '';

  const start = async (): Promise<void> => {
    const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'];
    const c = spawn(join(bin, 'postgres'), args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], ...ids });
    c.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    child = c;
    for (let i = 0; ; i++) {
      if (c.exitCode !== null) throw new Error(`postgres exited at start: ${log}`);
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'desk', database: 'postgres', ...password });
      try {
        await client.connect();
        await client.end();
        return;
      } catch (e) {
        await client.end().catch(() => {});
        if (i > 300) throw new Error(`postgres did not accept connections: ${(e as Error).message}\n${log}`, { cause: e });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  const stop = async (): Promise<void> => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGINT'); // fast shutdown: connections are ended, the server exits cleanly
    await exited;
  };

  const newDatabase = async (name: string): Promise<string> => {
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'desk', database: 'postgres', ...password });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    } finally {
      await admin.end();
    }
    return `postgresql://desk@127.0.0.1:${port}/${name}`;
  };

  let url: string;
  try {
    await start();
    url = await newDatabase(database);
  } catch (e) {
    // A server that did not come up (or whose first database was refused) is stopped and its folder removed here: no hook will.
    await stop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url,
    port,
    newDatabase,
    start,
    stop,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
