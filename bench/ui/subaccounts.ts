import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bucketFor } from '../../shared/api/rateLimits.ts';
import { openDesk } from '../../electron/core/desk.ts';
import { readSandboxCredentials } from '../../electron/core/profiles/sandbox.ts';
import { startWebHost } from '../../electron/host/web.ts';
import { launchSandbox } from '../../electron/sandbox-launcher.ts';
import { sandboxGet } from '../../e2e/sandboxApi.ts';
import { size, SMOKE, WORLD } from '../size.ts';
import { reportTargets } from '../targets.ts';
import { buildHost } from './buildHost.ts';
import { openWindows } from './windows.ts';

// `npm run bench -- ui-subaccounts` (docs/benchmarks.md §ui-subaccounts). The real desk (core + web host, in this process) over a
// Sandbox `--world bench` (1,000 sub-accounts) with its limits on, and Chromium on the Sub-accounts page.
//   subaccounts_load_ms         navigation start of #/sub-accounts with a cold core to the complete
//                               matrix reaching the window (the page's own `subaccounts:data` mark);
//   subaccounts_render_ms       that mark to the matrix painted with real figures (`subaccounts:painted`,
//                               a frame after React committed the rows), median of 5 reloads;
//   subaccounts_requests        requests that went to the exchange during the load, counted on the wire
//                               (this process's fetch), not by the desk's own counter;
//   subaccounts_min_requests    the API minimum: 1 (/sub_accounts) + ceil(n / 100) spot pages (§8.1) +
//                               1 each for margin, futures and cross margin with sub_uid omitted + 1 tickers;
//   subaccounts_load_bound_ms   the least time §8.2 allows for those requests: per bucket,
//                               (ceil(requests / limit) - 1) windows; the largest bucket's figure;
//   subaccounts_cold_paint_ms   navigation start to the matrix painted on that cold load;
//   subaccounts_cached_paint_ms the returning operator (docs/benchmarks.md §Reading the figures): the desk restarted (core and host
//                               closed and opened again on the same home, as on the next start) and the
//                               page opened: navigation start to the matrix painted with the last known
//                               figures from the desk's cache (`subaccounts:painted` with source
//                               'cache'), median of 5 restarts;
//   subaccounts_cached_paint_new_process_ms  the same from a new process (bench/ui/host.ts, built as
//                               `npm start` runs its launcher: cold JIT, the desk's own start-up reads
//                               under way), the page opened as soon as the host printed its address, as
//                               a window opens with the app: median of 3;
//   subaccounts_cached_paint_new_process_first_window_ms  the same in a browser that never showed the
//                               desk, as after a reinstall: median of 3, shown, not judged.
// Every tab but those is the returning operator's window (bench/ui/windows.ts), on the port the host keeps
// in the home as `npm start` does.
// The Sandbox is warmed first (one read of each endpoint by the test's own signer, then its rate
// windows forgotten through the admin API): a live exchange is not a process started a second ago. The
// desk itself starts cold. Progress to stderr; the last line on stdout is one JSON object.

const ROOT = join(import.meta.dirname, '..', '..');
const RUNS = size(5, 1);
/** Rounds of reads that warm the Sandbox before the desk starts. */
const WARM_ROUNDS = size(3, 1);
const log = (s: string) => process.stderr.write(`${s}\n`);

const wire: Array<{ path: string; at: number; wall: number; end?: number }> = [];
const realFetch = globalThis.fetch;
let apiPrefix = '';
globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
  const url = String(input instanceof Request ? input.url : input);
  if (!apiPrefix || !url.startsWith(apiPrefix)) return realFetch(input, init);
  const entry: (typeof wire)[number] = {
    path: new URL(url).pathname.slice(new URL(apiPrefix).pathname.length),
    at: performance.now(),
    wall: Date.now(),
  };
  wire.push(entry);
  return realFetch(input, init).then((res) => {
    entry.end = performance.now();
    return res;
  });
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-subaccounts-'));
  log(`bench ui-subaccounts: seeding a ${WORLD} world…`);
  const sandbox = await launchSandbox({ root: ROOT, dataDir: join(dir, 'sandbox'), extraArgs: ['--world', WORLD], timeoutMs: 300_000 });
  const creds = readSandboxCredentials(sandbox.credentialsPath);
  apiPrefix = creds.base_url;
  const counts = (await (
    await realFetch(`${creds.admin_url}/counts?uid=${creds.main.uid}`, { headers: { Authorization: `Bearer ${creds.admin_token}` } })
  ).json()) as { sub_accounts: number };
  for (let i = 0; i < WARM_ROUNDS; i++) {
    for (const path of [
      '/sub_accounts',
      '/wallet/sub_account_margin_balances',
      '/wallet/sub_account_futures_balances',
      '/wallet/sub_account_cross_margin_balances',
      '/spot/tickers',
    ]) {
      await sandboxGet(sandbox.credentialsPath, path);
    }
    await sandboxGet(sandbox.credentialsPath, '/wallet/sub_account_balances', 'limit=100&page=1');
  }
  await realFetch(`${creds.admin_url}/limits/reset`, { method: 'POST', headers: { Authorization: `Bearer ${creds.admin_token}` } });
  const home = join(dir, 'home');
  let core = openDesk({ home, sandboxCredentialsPath: sandbox.credentialsPath, log: () => {} });
  // Where the time after the last answer goes: the core's load end and each matrix call, in wall time.
  const coreTimes: string[] = [];
  core.subscribe((e, p) => {
    if (e === 'balancesProgress' && (p as { done: boolean }).done) coreTimes.push(`done@${Date.now()}`);
  });
  const invoke = core.invoke.bind(core);
  core.invoke = async (channel, payload) => {
    const t = Date.now();
    const r = await invoke(channel, payload);
    if (channel === 'balancesMatrix') coreTimes.push(`matrix@${t}+${Date.now() - t}`);
    return r;
  };
  /** As `npm start`: the same port from one start to the next, so that the window's cache stays its own. */
  const portFile = join(home, 'web-port');
  let host = await startWebHost({ core, staticDir: join(ROOT, 'dist', 'renderer'), portFile });
  /** The desk runs in this process (until the new-process runs close it). */
  let inProcess = true;
  const windows = await openWindows(join(dir, 'window'), { width: 1600, height: 1000 });
  /** A tab whose first address is the matrix itself: the host's token is put where the page keeps it. */
  const newTab = async () => {
    const tab = await windows.returning();
    await tab.addInitScript(
      (t) => (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem('desk-token', t),
      host.token,
    );
    return tab;
  };
  // The core's own start-up reads (clock sync, the history cache's first sync) are not part of the
  // load: wait until the wire has been quiet for 1.5 s.
  const wireQuiet = async () => {
    for (let quiet = 0; quiet < 1500;) {
      const before = wire.length;
      await new Promise((r) => setTimeout(r, 250));
      quiet = wire.length === before && wire.every((w) => w.end !== undefined) ? quiet + 250 : 0;
    }
  };
  try {
    const page = await newTab();
    await wireQuiet();

    // No named helpers inside these functions: the bundler's __name helper does not exist in the page.
    const marks = async () =>
      page.evaluate(() => ({
        data: performance.getEntriesByName('subaccounts:data')[0]?.startTime ?? null,
        painted: performance.getEntriesByName('subaccounts:painted')[0]?.startTime ?? null,
      }));
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    // When the page never paints, what it showed and what was on the wire say why (a run on a busy CI machine).
    const waitPainted = async (): Promise<void> => {
      try {
        await page.waitForFunction(() => performance.getEntriesByName('subaccounts:painted').length > 0, undefined, {
          timeout: 120_000,
          polling: 50,
        });
      } catch (e) {
        const shown = await page
          .locator('body')
          .innerText()
          .catch(() => '(unreadable)');
        const pending = wire.filter((w) => w.end === undefined).map((w) => w.path);
        throw new Error(
          `${(e as Error).message}\nthe page showed: ${shown.slice(0, 1500)}\npage errors: ${problems.join(' | ') || 'none'}\n` +
            `${wire.length} requests on the wire, unanswered: ${pending.join(', ') || 'none'}`,
          { cause: e },
        );
      }
    };

    wire.length = 0;
    await page.goto(`${host.origin}/#/sub-accounts`);
    await waitPainted();
    const cold = await marks();
    const origin = await page.evaluate(() => performance.timeOrigin);
    // The balances load's own reads; anything else on the wire meanwhile (a background poll) is logged apart.
    const BALANCE_READ = /^\/(sub_accounts|wallet\/sub_account_(margin_|futures_|cross_margin_)?balances|spot\/tickers)$/;
    const loadRequests = wire.filter((w) => BALANCE_READ.test(w.path));
    const others = wire.filter((w) => !BALANCE_READ.test(w.path));
    if (others.length) log(`other requests during the load: ${others.map((w) => w.path).join(', ')}`);
    const originWall = await page.evaluate(() => performance.timeOrigin);
    log(
      `core: ${coreTimes
        .slice(0, 6)
        .map((x) => x.replace(/@(\d+)/, (_, w: string) => `@${(Number(w) - originWall).toFixed(0)}`))
        .join(' ')}`,
    );
    const rows = await page.getByRole('table').getAttribute('aria-rowcount');
    log(
      `cold load: data at ${cold.data?.toFixed(0)} ms, painted at ${cold.painted?.toFixed(0)} ms, ${loadRequests.length} requests, ${rows} rows`,
    );

    // Where the time before the first request goes: the page's own files, then the first ask.
    type Timing = { name: string; startTime: number; responseEnd: number; domContentLoadedEventEnd: number };
    const startup = await page.evaluate(() => {
      const perf = performance as unknown as { getEntriesByType(t: string): Timing[] };
      const nav = perf.getEntriesByType('navigation')[0];
      const res = perf.getEntriesByType('resource');
      const main = res.find((x) => /assets\/main-[^/]*\.js$/.test(x.name));
      const chunk = res.find((x) => /assets\/SubAccountsPage-[^/]*\.js$/.test(x.name));
      const ask = res.find((x) => /rpc\/balancesMatrix$/.test(x.name));
      return {
        html: nav ? Math.round(nav.responseEnd) : null,
        main_js: main ? Math.round(main.responseEnd) : null,
        dom_content_loaded: nav ? Math.round(nav.domContentLoadedEventEnd) : null,
        page_chunk: chunk ? Math.round(chunk.responseEnd) : null,
        first_matrix_ask: ask ? Math.round(ask.startTime) : null,
      };
    });
    log(`page start-up (ms after navigation start): ${JSON.stringify(startup)}`);

    const renders: number[] = [cold.painted! - cold.data!];
    for (let i = 1; i < RUNS; i++) {
      await page.reload();
      await waitPainted();
      const m = await marks();
      renders.push(m.painted! - m.data!);
    }
    log(`render runs (ms): ${renders.map((r) => r.toFixed(1)).join(', ')}`);
    await page.close();

    // The returning operator: each run closes the desk and opens it again on the same home, then opens
    // the page; the figure is the first paint of the cached matrix. The exchange's load that follows is
    // let end before the next restart (it is the next start's cache).
    const cachedPaints: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await host.close();
      await core.close();
      core = openDesk({ home, sandboxCredentialsPath: sandbox.credentialsPath, log: () => {} });
      const calls: string[] = [];
      const invokeAgain = core.invoke.bind(core);
      core.invoke = async (channel, payload) => {
        const t = Date.now();
        const r = await invokeAgain(channel, payload);
        if (channel === 'balancesMatrix') calls.push(`matrix@${t}+${Date.now() - t}`);
        return r;
      };
      host = await startWebHost({ core, staticDir: join(ROOT, 'dist', 'renderer'), portFile });
      const tab = await newTab();
      await wireQuiet();
      await tab.goto(`${host.origin}/#/sub-accounts`);
      const painted = (source: string) =>
        tab.waitForFunction(
          (s) =>
            performance
              .getEntriesByName('subaccounts:painted')
              .some((e) => (e as unknown as { detail?: { source?: string } }).detail?.source === s),
          source,
          { timeout: 120_000, polling: 20 },
        );
      await painted('cache');
      cachedPaints.push(
        await tab.evaluate(
          () =>
            performance
              .getEntriesByName('subaccounts:painted')
              .find((e) => (e as unknown as { detail?: { source?: string } }).detail?.source === 'cache')!.startTime,
        ),
      );
      const tabOrigin = await tab.evaluate(() => performance.timeOrigin);
      const split = await tab.evaluate(() => {
        const perf = performance as unknown as { getEntriesByType(t: string): Array<{ name: string; startTime: number }> };
        const ask = perf.getEntriesByType('resource').find((x) => /rpc\/balancesMatrix$/.test(x.name));
        return {
          ask: ask ? Math.round(ask.startTime) : null,
          data: Math.round(performance.getEntriesByName('subaccounts:data')[0]?.startTime ?? NaN),
        };
      });
      log(
        `cached run ${i + 1}: matrix asked at ${split.ask} ms, answer in the window at ${split.data} ms, painted at ${cachedPaints.at(-1)!.toFixed(0)} ms`,
      );
      if (i === 0)
        log(
          `restarted core: ${calls
            .slice(0, 3)
            .map((x) => x.replace(/@(\d+)/, (_, w: string) => `@${(Number(w) - tabOrigin).toFixed(0)}`))
            .join(' ')}`,
        );
      await painted('exchange');
      await tab.close();
    }
    log(`cached paint runs (ms): ${cachedPaints.map((r) => r.toFixed(1)).join(', ')}`);

    // A new process each time: the host as `npm start` runs it, the page opened the moment it is up.
    await host.close();
    await core.close();
    inProcess = false;
    const newProcessPaints: number[] = [];
    const firstWindowPaints: number[] = [];
    const hostScript = await buildHost();
    // The two windows take turns, so that a machine whose speed drifts moves both alike.
    const turns = Array.from({ length: size(3, 1) }, (_, i) => [
      { i, open: windows.returning, paints: newProcessPaints, name: 'new process' },
      { i, open: windows.first, paints: firstWindowPaints, name: 'new process, first window' },
    ]).flat();
    for (const { i, open, paints, name } of turns) {
      const child = spawn(process.execPath, [hostScript, home, sandbox.credentialsPath, join(ROOT, 'dist', 'renderer')], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (c: Buffer) => {
            out += c.toString();
            const m = /^URL (\S+)$/m.exec(out);
            if (m) resolve(m[1]!);
          });
          child.once('exit', (code) => reject(new Error(`bench/ui/host.ts exited ${code} before it was up`)));
        });
        const tab = await open();
        await tab.addInitScript(
          (t) =>
            (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem('desk-token', t),
          new URLSearchParams(new URL(url).hash.slice(1)).get('token')!,
        );
        await tab.goto(`${new URL(url).origin}/#/sub-accounts`);
        const cachedMark = (s: string) =>
          tab.waitForFunction(
            (w) =>
              performance
                .getEntriesByName('subaccounts:painted')
                .some((e) => (e as unknown as { detail?: { source?: string } }).detail?.source === w),
            s,
            { timeout: 120_000, polling: 20 },
          );
        await cachedMark('cache');
        paints.push(
          await tab.evaluate(
            () =>
              performance
                .getEntriesByName('subaccounts:painted')
                .find((e) => (e as unknown as { detail?: { source?: string } }).detail?.source === 'cache')!.startTime,
          ),
        );
        const split = await tab.evaluate(() => {
          const perf = performance as unknown as {
            getEntriesByType(t: string): Array<{ name: string; startTime: number; responseEnd: number }>;
          };
          const res = perf.getEntriesByType('resource');
          const ask = res.find((x) => /rpc\/balancesMatrix$/.test(x.name));
          const html = perf.getEntriesByType('navigation')[0];
          return {
            html: html ? Math.round(html.responseEnd) : null,
            ask: ask ? Math.round(ask.startTime) : null,
            answered: ask ? Math.round(ask.responseEnd) : null,
            data: Math.round(performance.getEntriesByName('subaccounts:data')[0]?.startTime ?? NaN),
          };
        });
        log(`${name} run ${i + 1}: ${JSON.stringify(split)}, painted at ${paints.at(-1)!.toFixed(0)} ms`);
        await cachedMark('exchange');
        await tab.close();
      } finally {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
    log(`cached paint from a new process (ms): ${newProcessPaints.map((r) => r.toFixed(1)).join(', ')}`);
    log(`the same in a window that never showed the desk (ms): ${firstWindowPaints.map((r) => r.toFixed(1)).join(', ')}`);

    const byBucket = new Map<string, { n: number; limit: number; windowSec: number }>();
    for (const r of loadRequests) {
      const b = bucketFor('GET', r.path);
      const e = byBucket.get(b.key) ?? { n: 0, limit: b.rule.limit, windowSec: b.rule.windowSec };
      e.n++;
      byBucket.set(b.key, e);
    }
    const bound = Math.max(0, ...[...byBucket.values()].map((b) => (Math.ceil(b.n / b.limit) - 1) * b.windowSec * 1000));
    const byPath: Record<string, number> = {};
    for (const r of loadRequests) byPath[r.path] = (byPath[r.path] ?? 0) + 1;
    log(`requests by path: ${JSON.stringify(byPath)}`);
    const t0 = Math.min(...loadRequests.map((r) => r.at));
    log(`first load request left ${(Math.min(...loadRequests.map((r) => r.wall)) - origin).toFixed(0)} ms after navigation start`);
    log(`on the wire: ${loadRequests.map((r) => `${r.path} +${(r.at - t0).toFixed(0)}..${((r.end ?? NaN) - t0).toFixed(0)}`).join(', ')}`);
    const n = counts.sub_accounts;
    const firstAt = Math.min(...loadRequests.map((r) => r.wall)) - origin;
    const lastEnd = Math.max(...loadRequests.map((r) => r.end ?? NaN)) - t0;
    const minRequests = 1 + Math.ceil(n / 100) + 3 + 1;
    const figures = {
      sub_accounts: n,
      rows_shown: Number(rows),
      subaccounts_render_ms: Number(median(renders).toFixed(1)),
      subaccounts_render_runs_ms: renders.map((r) => Number(r.toFixed(1))),
      subaccounts_load_ms: Number(cold.data!.toFixed(1)),
      subaccounts_cold_paint_ms: Number(cold.painted!.toFixed(1)),
      subaccounts_cached_paint_ms: Number(median(cachedPaints).toFixed(1)),
      subaccounts_cached_paint_runs_ms: cachedPaints.map((r) => Number(r.toFixed(1))),
      subaccounts_cached_paint_new_process_ms: Number(median(newProcessPaints).toFixed(1)),
      subaccounts_cached_paint_new_process_runs_ms: newProcessPaints.map((r) => Number(r.toFixed(1))),
      subaccounts_cached_paint_new_process_first_window_ms: Number(median(firstWindowPaints).toFixed(1)),
      subaccounts_cached_paint_new_process_first_window_runs_ms: firstWindowPaints.map((r) => Number(r.toFixed(1))),
      subaccounts_load_bound_ms: bound,
      /** Where the load time goes: navigation to the first request (the window's start-up), then the requests on the wire. */
      subaccounts_load_split_ms: {
        to_first_request: Number(firstAt.toFixed(0)),
        on_the_wire: Number(lastEnd.toFixed(0)),
        after_last_answer: Number((cold.data! - firstAt - lastEnd).toFixed(0)),
      },
      subaccounts_requests: loadRequests.length,
      subaccounts_min_requests: minRequests,
    };
    // The targets of docs/benchmarks.md §ui-subaccounts (load within 500 ms of the §8.2 bound, the API's minimum of requests).
    const targets = {
      subaccounts_render_ms: '<= 300',
      subaccounts_load_ms: `<= ${bound + 500}`,
      subaccounts_requests: `<= ${minRequests}`,
      subaccounts_cached_paint_ms: '<= 300',
      subaccounts_cached_paint_new_process_ms: '<= 300',
    };
    if (!SMOKE) reportTargets(figures, targets);
    process.stdout.write(`${JSON.stringify({ ...figures, targets })}\n`);
  } finally {
    await windows.close();
    if (inProcess) {
      await host.close();
      await core.close();
    }
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  log(`bench ui-subaccounts failed: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
