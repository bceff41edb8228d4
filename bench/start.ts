import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, ROOT } from '../e2e/harness.ts';
import { size, SMOKE } from './size.ts';
import { reportTargets } from './targets.ts';

// `npm run bench -- start` (docs/benchmarks.md §start): what an operator waits for when opening the desk, as `npm start`
// serves it where Electron cannot run (the web host; the same renderer and core as the window).
//   start_to_url_ms            `npm start` with nothing changed since the last start, to the app's URL
//                              printed (median; the first start, which may build and seeds the Sandbox's
//                              world, is not timed);
//   new_user_first_balance_ms  on that first start (an empty desk folder: nothing is known yet), navigation
//                              start to the total balance painted, read from the exchange;
//   first_paint_ms             on each later start, navigation start to the total balance painted: the last
//                              known figure from the desk's cache, marked with its age (median);
//   fresh_figure_ms            the same start, navigation start to the figure read in this start painted;
//   first_read_ms              the same start, navigation start to the first read of the core sent
//                              (Resource Timing), median: the window's first script sends it (opening.ts);
//   usable_ms                  process start to the total painted (`npm start` itself, the Sandbox, the
//                              host, the page), median.
// Figures are read in the page from requestAnimationFrame callbacks, the frame that paints them.

const RUNS = size(5, 1);
const TARGETS = { start_to_url_ms: '<= 3000', first_paint_ms: '<= 300' };
const log = (s: string) => process.stderr.write(`bench start: ${s}\n`);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]!);
}

interface Started {
  child: ChildProcess;
  url: string;
  urlMs: number;
  /** Wall clock (ms since the epoch): the page's clock is another process's. */
  spawnedAt: number;
}

function npmStart(home: string): Promise<Started> {
  const spawnedAt = Date.now();
  const t0 = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, TREASURY_DESK_HOME: home, TREASURY_DESK_WEB: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Treasury Desk: (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, urlMs: performance.now() - t0, spawnedAt });
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before printing its URL:\n${err.slice(-2000)}`)));
  });
}

/** Ctrl-C as an operator would: the desk and its Sandbox stop; answers when the whole process group is gone. */
function stop(s: Started): Promise<void> {
  return new Promise((resolve) => {
    s.child.removeAllListeners('exit');
    s.child.once('exit', () => resolve());
    process.kill(-s.child.pid!, 'SIGINT');
  });
}

// Runs in the page before its own scripts: each frame, notes when the total first shows, and whether it is
// the last known figure (the card says so) or one read in this start.
const WATCH = `(() => {
  const seen = (window.__totalSeen = { first: null, lastKnown: null, fresh: null });
  const tick = (t) => {
    const el = document.querySelector('[data-testid="total-amount"]');
    if (el) {
      const known = el.closest('[data-last-known]') !== null;
      if (seen.first === null) { seen.first = t; seen.lastKnown = known; }
      if (!known && seen.fresh === null) seen.fresh = t;
    }
    if (seen.fresh === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

interface Seen {
  first: number;
  lastKnown: boolean;
  fresh: number;
  /** The first paint on the wall clock. */
  firstWall: number;
  /** When the first read of the core left, after navigation start. */
  firstRead: number;
}

async function openAndWatch(browser: Browser, url: string): Promise<Seen> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(WATCH);
  const page = await context.newPage();
  try {
    await page.goto(url);
    // Polled from here: the page's CSP refuses the string evaluation waitForFunction would do in it.
    const deadline = Date.now() + 60_000;
    while (!(await page.evaluate('window.__totalSeen.fresh !== null'))) {
      if (Date.now() > deadline) throw new Error('the total balance was not painted within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    return (await page.evaluate(`({
      ...window.__totalSeen,
      firstWall: performance.timeOrigin + window.__totalSeen.first,
      firstRead: performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname.startsWith('/rpc/'))?.startTime ?? NaN,
    })`)) as Seen;
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const browser = await launchBrowser();
  let running: Started | undefined;
  try {
    log('first start (builds if an input changed; seeds the Sandbox), not timed');
    running = await npmStart(home);
    const newUser = await openAndWatch(browser, running.url);
    log(`new user: total painted ${Math.round(newUser.first)} ms after navigation start (last known: ${newUser.lastKnown})`);
    await stop(running);
    running = undefined;

    const runs: Array<{ url: number; first: number; fresh: number; usable: number; lastKnown: boolean; read: number }> = [];
    for (let i = 0; i < RUNS; i++) {
      running = await npmStart(home);
      const seen = await openAndWatch(browser, running.url);
      const usable = seen.firstWall - running.spawnedAt;
      runs.push({ url: running.urlMs, first: seen.first, fresh: seen.fresh, usable, lastKnown: seen.lastKnown, read: seen.firstRead });
      log(`run ${i + 1}: ${JSON.stringify(runs.at(-1), (_k, v: unknown) => (typeof v === 'number' ? Math.round(v) : v))}`);
      await stop(running);
      running = undefined;
    }
    const result = {
      start_to_url_ms: median(runs.map((r) => r.url)),
      new_user_first_balance_ms: Math.round(newUser.first),
      first_paint_ms: median(runs.map((r) => r.first)),
      first_paint_last_known: runs.every((r) => r.lastKnown),
      fresh_figure_ms: median(runs.map((r) => r.fresh)),
      first_read_ms: median(runs.map((r) => r.read)),
      usable_ms: median(runs.map((r) => r.usable)),
      targets: TARGETS,
    };
    if (!SMOKE) reportTargets(result, TARGETS);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    if (running) await stop(running);
    await browser.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
