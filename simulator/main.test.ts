import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { signed } from './testkit/http.ts';

// The command line as a user runs it: a child process, its ready line, credentials.json, restarts.

const ROOT = join(import.meta.dirname, '..');
const TSX = createRequire(join(ROOT, 'package.json')).resolve('tsx');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function run(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, join(ROOT, 'simulator', 'main.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    cwd: ROOT,
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

function ready(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^Sandbox listening on (\S+)$/.exec(line);
      if (m) resolve(m[1]!);
    });
  });
}

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
  dirs.push(d);
  return d;
}

describe('npm run sandbox', () => {
  it.each([
    [['--data', 'x', '--world', 'moon'], /--world must be demo or bench/],
    [['--data', 'x', '--port', 'eighty'], /--port must be 0 to 65535/],
    [['--data', 'x', '--speed', 'fast'], /--speed must be a number/],
    [['--port', '0'], /--data <dir> is required/],
    [['--data', 'x', '--limits-off'], /Unknown option '--limits-off'/],
    [['--data', 'x', '--host', '0.0.0.0'], /loopback/],
  ])('refuses %j with a clear message and exit code 2', async (args, message) => {
    const { code, stderr } = await exitOf(run(args));
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('usage: npm run sandbox');
  });

  it('prints its base_url, writes credentials.json (0600), keeps keys and token across a restart, and stops with its parent', async () => {
    const data = tmp();
    const first = run(['--port', '0', '--data', data, '--no-limits']);
    const exited = exitOf(first);
    const base1 = await ready(first);
    expect(base1).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v4$/);
    const path = join(data, 'credentials.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const c1 = JSON.parse(readFileSync(path, 'utf8'));
    expect(Object.keys(c1).sort()).toEqual(['admin_token', 'admin_url', 'base_url', 'main', 'read_only', 'sub_accounts']);
    expect(c1.base_url).toBe(base1);
    expect(c1.admin_url).toBe(base1.replace('/api/v4', '/admin/v1'));
    expect(c1.sub_accounts.length).toBeGreaterThan(0);
    expect((await signed(base1, c1.main, { method: 'GET', path: '/wallet/total_balance' })).status).toBe(200);

    // The desk starts it with an IPC channel: closing that channel stops it.
    first.disconnect();
    expect((await exited).code).toBe(0);

    const second = run(['--port', '0', '--data', data]);
    const exited2 = exitOf(second);
    const base2 = await ready(second);
    const c2 = JSON.parse(readFileSync(path, 'utf8'));
    expect(c2.base_url).toBe(base2);
    expect([c2.main, c2.read_only, c2.sub_accounts, c2.admin_token]).toEqual([c1.main, c1.read_only, c1.sub_accounts, c1.admin_token]);
    expect((await signed(base2, c2.main, { method: 'GET', path: '/wallet/total_balance' })).status).toBe(200);
    second.kill('SIGTERM');
    expect((await exited2).code).toBe(0);

    // The folder holds a demo world: asking for another one is an error, not a silent reseed.
    const third = await exitOf(run(['--port', '0', '--data', data, '--world', 'bench']));
    expect(third.code).toBe(2);
    expect(third.stderr).toMatch(/holds the demo world/);
  }, 60_000);
});
