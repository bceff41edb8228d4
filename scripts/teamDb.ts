import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { deskHome } from '../electron/core/paths.ts';

// `npm run team:db`: a PostgreSQL for rehearsing a team (docs/team.md §Rehearsing a team), in the folder
// `team-db/` of the desk's data folder: initdb once (user `desk`, a password made here, scram-sha-256),
// pg_ctl to start it on 127.0.0.1 at a free port, a database `team`; it prints the URL and the password
// to type into Settings → Team store. Run again, it starts the same server (or says it runs) and prints
// the same. Where no initdb is found it says how to install PostgreSQL and exits 1.
//
//   npm run team:db [-- --dir <folder>] [--bin <folder holding initdb and pg_ctl>]

const INSTALL = [
  'No PostgreSQL found here (initdb and pg_ctl, on PATH or in /usr/lib/postgresql/<version>/bin).',
  'Install it, then run `npm run team:db` again:',
  '  Debian, Ubuntu:  sudo apt-get install postgresql',
  '  Fedora:          sudo dnf install postgresql-server',
  '  macOS:           brew install postgresql@15   (then: export PATH="$(brew --prefix postgresql@15)/bin:$PATH")',
  '  Windows:         https://www.postgresql.org/download/windows/ (add its bin folder to PATH)',
  'Or with Docker: see docs/team.md §Setting up a PostgreSQL.',
].join('\n');

/** The folder holding initdb and pg_ctl: PATH first, then Debian's /usr/lib/postgresql/<version>/bin (newest). */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | null {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir && has(dir)) return dir;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (has(join(root, v, 'bin'))) return join(root, v, 'bin');
  return null;
}

/** PostgreSQL will not run as root: under root it runs as `postgres` (else `nobody`), which must own its folder. */
function unprivileged(): { uid: number; gid: number } | null {
  if (userInfo().uid !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const u = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const g = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (u.status === 0 && g.status === 0) return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
  }
  throw new Error('PostgreSQL will not run as root, and there is no postgres or nobody user to run it as.');
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const s = createServer();
    s.once('error', () => ok(false));
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
  });
}

export interface TeamDb {
  url: string;
  password: string;
  dir: string;
  /** Started now, or found running. */
  started: boolean;
}

/** Starts (or finds running) the rehearsal PostgreSQL in `dir` with the binaries of `bin`. */
export async function teamDb(dir: string, bin: string, log: (line: string) => void = () => {}): Promise<TeamDb> {
  const as = unprivileged();
  const ids = as ? { uid: as.uid, gid: as.gid } : {};
  const data = join(dir, 'data');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (as) chownSync(dir, as.uid, as.gid);
  const pwPath = join(dir, 'password');
  if (!existsSync(join(data, 'PG_VERSION'))) {
    const password = randomBytes(18).toString('base64url');
    writeFileSync(pwPath, `${password}\n`, { mode: 0o600 });
    if (as) chownSync(pwPath, as.uid, as.gid);
    log(`Creating a PostgreSQL cluster in ${data} …`);
    const init = spawnSync(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'desk', '--auth=scram-sha-256', `--pwfile=${pwPath}`, '-E', 'UTF8', '--no-instructions'],
      { encoding: 'utf8', cwd: dir, ...ids },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const password = readFileSync(pwPath, 'utf8').trim();
  const portPath = join(dir, 'port');
  const pgCtl = (args: string[]) => spawnSync(join(bin, 'pg_ctl'), ['-D', data, ...args], { encoding: 'utf8', cwd: dir, ...ids });
  let started = false;
  let port = existsSync(portPath) ? Number(readFileSync(portPath, 'utf8').trim()) : 0;
  if (pgCtl(['status']).status !== 0) {
    if (!port || !(await portFree(port))) port = await freePort();
    writeFileSync(portPath, `${port}\n`, { mode: 0o600 });
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
    const run = pgCtl(['-l', join(dir, 'postgres.log'), '-o', opts, '-w', '-t', '60', 'start']);
    if (run.status !== 0)
      throw new Error(`pg_ctl could not start PostgreSQL: ${run.stderr || run.stdout} (see ${join(dir, 'postgres.log')})`);
    started = true;
  }
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'desk', password, database: 'postgres' });
  await client.connect();
  try {
    const has = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', ['team']);
    if (has.rowCount === 0) await client.query('CREATE DATABASE team');
  } finally {
    await client.end();
  }
  return { url: `postgresql://desk@127.0.0.1:${port}/team`, password, dir, started };
}

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const bin = arg(argv, '--bin') ?? findPostgresBin();
  if (!bin || !existsSync(join(bin, 'initdb'))) {
    process.stderr.write(`${INSTALL}\n`);
    return 1;
  }
  // Under root the server runs as another user, who cannot enter the desk's own (0700) folder.
  const given = arg(argv, '--dir');
  const dir = given ? resolve(given) : userInfo().uid === 0 ? join(tmpdir(), 'treasury-desk-team-db') : join(deskHome(), 'team-db');
  const db = await teamDb(dir, bin, (l) => process.stdout.write(`${l}\n`));
  const stop = `${join(bin, 'pg_ctl')} -D ${join(dir, 'data')} stop`;
  process.stdout.write(
    [
      `PostgreSQL for rehearsal ${db.started ? 'started' : 'is already running'} (data in ${dir}; stop it with: ${stop})`,
      `URL:      ${db.url}`,
      `Password: ${db.password}`,
      'At each desk: Settings → Team store, paste the URL and the password, Test; the first desk founds the team,',
      'then its "Invite a desk" gives the second desk everything else (docs/team.md §Rehearsing a team).',
      '',
    ].join('\n'),
  );
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`team:db: ${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
