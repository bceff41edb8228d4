import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { superviseWith } from './sandbox-process.ts';
import { ensureSandboxBundle } from './sandboxBundle.ts';
import { utilitySpawner, type UtilityForkLike } from './sandbox-utility.ts';

// An installed desk starts its Sandbox with Electron's utilityProcess (no Electron here): a stand-in with
// utilityProcess's shape (an exit code and no signal, kill() without one) runs the real bundle, and the
// supervision `npm start` uses keeps it: it comes back on the same port after a crash, and stays down
// once the desk stops it.

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'td-utility-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const forks: Array<{ env: Record<string, string | undefined>; args: string[] }> = [];
const fakeUtility: UtilityForkLike = {
  fork(modulePath, args, options) {
    forks.push({ env: options.env, args });
    const child = spawn(process.execPath, [modulePath, ...args], {
      env: options.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return {
      pid: child.pid,
      stdout: child.stdout,
      stderr: child.stderr,
      kill: () => child.kill('SIGTERM'),
      once: (_event, listener) => child.once('exit', (code) => listener(code ?? 1)),
    };
  },
};

describe("an installed desk's own Sandbox", () => {
  it('starts from the bundle with the environment it is given, restarts on the same port after a crash, and stops for good', async () => {
    const bundle = await ensureSandboxBundle(ROOT);
    const env = {
      PATH: process.env.PATH,
      TREASURY_DESK_SQLITE_BINDING: join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
    };
    const events: string[] = [];
    let restarted!: () => void;
    const back = new Promise<void>((r) => (restarted = r));
    const sandbox = await superviseWith(utilitySpawner(fakeUtility, bundle, env), {
      dataDir: join(dir, 'sandbox'),
      onDown: () => events.push('down'),
      onRestarted: () => {
        events.push('restarted');
        restarted();
      },
    });
    expect(forks[0]!.env).toEqual(env);
    expect((await fetch(`${sandbox.baseUrl}/spot/currency_pairs`)).status).toBe(200);

    process.kill(sandbox.current().pid!, 'SIGKILL');
    await back;
    expect(events).toEqual(['down', 'restarted']);
    expect(forks[1]!.args).toContain(new URL(sandbox.baseUrl).port);
    expect((await fetch(`${sandbox.baseUrl}/spot/currency_pairs`)).status).toBe(200);

    const pid = sandbox.current().pid!;
    await sandbox.stop();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(forks).toHaveLength(2);
  }, 60_000);

  it('names what went wrong when the bundle cannot start (here: the native binary named does not exist)', async () => {
    const bundle = await ensureSandboxBundle(ROOT);
    const spawner = utilitySpawner(fakeUtility, bundle, {
      PATH: process.env.PATH,
      TREASURY_DESK_SQLITE_BINDING: join(dir, 'missing.node'),
    });
    await expect(superviseWith(spawner, { dataDir: join(dir, 'broken') })).rejects.toThrow(
      /exited with code 1 before it was ready[\s\S]*missing\.node/,
    );
  }, 60_000);
});
