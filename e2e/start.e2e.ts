import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './harness.ts';

// `npm start`'s own process (web host): a crashed Sandbox is restarted with a line that says so, and
// a Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops everything with another.

/** The Sandbox processes started by a process: its bundle run by Node (tsx's esbuild service is a child too, and is left alone). */
function sandboxesOf(pid: number): number[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return out
    .split('\n')
    .filter((l) => l.includes(join('dist', 'sandbox', 'main.mjs')))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

describe('npm start supervises its Sandbox', () => {
  const home = mkdtempSync(join(tmpdir(), 'treasury-desk-start-'));
  let desk: ChildProcess | undefined;
  const lines: string[] = [];
  afterAll(() => {
    if (desk?.pid && desk.exitCode === null) process.kill(-desk.pid, 'SIGKILL');
    rmSync(home, { recursive: true, force: true });
  });

  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const started = lines.length;
      const found = () => lines.slice(0).find((l) => pattern.test(l));
      const t = setInterval(() => {
        const hit = found();
        if (hit) {
          clearInterval(t);
          resolve(hit);
        }
      }, 50);
      setTimeout(() => {
        clearInterval(t);
        reject(new Error(`no line matching ${pattern} (after line ${started}):\n${lines.join('\n')}`));
      }, timeoutMs);
    });

  it('prints one line for a crash (and restarts) and another for Ctrl-C (and stops)', async () => {
    desk = spawn(process.execPath, [join(ROOT, 'dist', 'start', 'start.mjs')], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TREASURY_DESK_WEB: '1', TREASURY_DESK_HOME: home },
    });
    for (const s of [desk.stdout!, desk.stderr!]) createInterface({ input: s }).on('line', (l) => lines.push(l));
    await waitFor(/^Treasury Desk: http:\/\/127\.0\.0\.1:/);

    const running = sandboxesOf(desk.pid!);
    expect(running).toHaveLength(1);
    const sandboxPid = running[0];
    process.kill(sandboxPid!, 'SIGKILL');
    expect(await waitFor(/^The Sandbox stopped unexpectedly/)).toBe(
      'The Sandbox stopped unexpectedly (signal SIGKILL); restarting it with the same data.',
    );
    await waitFor(/^The Sandbox was restarted on http:\/\/127\.0\.0\.1:\d+\/api\/v4; the desk goes on\.$/);
    const restarted = sandboxesOf(desk.pid!);
    expect(restarted).toHaveLength(1);
    expect(restarted[0]).not.toBe(sandboxPid);

    const exited = new Promise<number | null>((r) => desk!.once('exit', (code) => r(code)));
    process.kill(-desk.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    expect(lines).toContain('Ctrl-C: stopping the desk and the Sandbox.');
    expect(lines.filter((l) => l.startsWith('The Sandbox stopped unexpectedly'))).toHaveLength(1);
    expect(sandboxesOf(desk.pid!)).toEqual([]);
  });
});
