import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { SubAccount } from '../shared/api/subAccounts.ts';
import type { Statement, StatementEvery } from '../shared/statements.ts';
import { ApiClient } from '../electron/core/client/client.ts';
import { createCore } from '../electron/core/core.ts';
import { readSandboxCredentials, sandboxProfile } from '../electron/core/profiles/sandbox.ts';
import { adminCall } from '../electron/core/testkit/sandboxAdmin.ts';
import { ok } from '../electron/core/testkit/sandboxCore.ts';
import { launchSandbox } from '../electron/sandbox-launcher.ts';
import { size, WORLD } from './size.ts';
import { reportTargets } from './targets.ts';

// `npm run bench -- statements` (docs/benchmarks.md §statements). A Sandbox `--world bench` with its rate
// limits on, a key made for each of its first ACCOUNTS sub-accounts, and a desk holding them all:
//   warm_s          the history sync that fills the desk's cache (withdrawals, deposits, transfers).
//   year_s          a year's USDT statement of every account (main and ACCOUNTS sub-accounts), one after another.
//   requests        the requests those statements made; min_requests the least they allow: per account its
//                   balance read, and per 30-day window (§8.1) one page of 1,000 book entries or as many as
//                   the window's entries fill; per sub-account one request a 30-day window of its deposits.
//   reconciled      accounts whose statement reconciles to the exchange's closing balance with nothing unexplained.
//   month_ms        the median of RUNS statements of the main account's last 30 days.
// The last line is one JSON object.

const ROOT = join(import.meta.dirname, '..');
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? size(1000, 3));
const RUNS = Number(process.env.BENCH_RUNS ?? size(5, 1));
const DAY = 86_400_000;
const WINDOW = 30 * DAY;
const PAGE = 1000;
const log = (s: string) => process.stderr.write(`bench statements: ${s}\n`);
const READ_ONLY = { spot: 'read', futures: 'read', delivery: 'read', wallet: 'read', withdraw: 'none', unified: true };

/** A sub-account's deposits are read from this long before the period (the service's RECORDS_BEFORE_MS). */
const RECORDS_BEFORE = 90 * DAY;

/**
 * The least requests `s` could be built with: its balance read; its account book from `from` on in 30-day
 * windows of pages of 1,000; for a sub-account, one request a 30-day window of its deposits.
 */
function leastRequests(s: Statement, from: number, now: number): number {
  const windows = Math.max(1, Math.ceil((now - from) / WINDOW));
  const perWindow = new Array<number>(windows).fill(0);
  for (const m of s.movements) if (m.source !== 'desk') perWindow[Math.min(windows - 1, Math.floor((m.at - from) / WINDOW))]!++;
  const deposits = s.account === 'main' ? 0 : Math.ceil((now - from + RECORDS_BEFORE) / WINDOW);
  return 1 + perWindow.reduce((n, e) => n + Math.max(1, Math.ceil(e / PAGE)), 0) + deposits;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-statements-'));
  const sandbox = await launchSandbox({ root: ROOT, dataDir: join(dir, 'sandbox'), extraArgs: ['--world', WORLD], timeoutMs: 120_000 });
  try {
    const creds = readSandboxCredentials(sandbox.credentialsPath);
    const main = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main });
    const subs = (await main.request({ method: 'GET', path: '/sub_accounts', query: [['type', '0']] }, z.array(SubAccount)))
      .map((s) => s.user_id)
      .sort((a, b) => Number(a) - Number(b))
      .slice(0, ACCOUNTS);
    const held = new Map((creds.sub_accounts ?? []).map((k) => [k.uid, k]));
    const subKeys = [];
    for (const uid of subs) {
      const k =
        held.get(uid) ??
        (await adminCall<{ key: string; secret: string }>(creds, 'POST', '/keys', { uid, perms: READ_ONLY, label: 'bench' }));
      subKeys.push({ uid, key: k.key, secret: k.secret });
    }
    log(`${subKeys.length} sub-account keys`);
    const core = createCore({
      profile: { ...sandboxProfile(sandbox.credentialsPath), subKeys },
      dataDir: join(dir, 'desk'),
      log: () => {},
      coolingOffMs: 0,
      history: { syncEveryMs: 3_600_000, tickMs: 3_600_000 },
    });
    try {
      let t = performance.now();
      await ok(core.invoke('historySync', {}));
      const warmS = (performance.now() - t) / 1000;
      log(`cache warm in ${warmS.toFixed(1)} s`);

      const now = Date.now();
      const from = now - 365 * DAY;
      t = performance.now();
      const every = await ok<StatementEvery>(core.invoke('statementBuildEvery', { currencies: ['USDT'], from, to: now, time_zone: 'UTC' }));
      const yearS = (performance.now() - t) / 1000;
      const requests = every.statements.reduce((n, s) => n + s.requests, 0);
      let minRequests = 0;
      for (const s of every.statements)
        minRequests += leastRequests(await ok<Statement>(core.invoke('statementGet', { id: s.id })), from, now);
      const reconciled = every.statements.filter((s) => s.difference === '0' && s.unexplained.length === 0).length;
      for (const s of every.statements.filter((x) => x.unexplained.length > 0).slice(0, 3))
        log(`${s.account_label}: ${s.unexplained.map((u) => u.sentence).join('; ')}`);

      const months: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const at = Date.now();
        t = performance.now();
        await ok(core.invoke('statementBuild', { account: 'main', currency: 'USDT', from: at - 30 * DAY, to: at, time_zone: 'UTC' }));
        months.push(performance.now() - t);
      }
      months.sort((a, b) => a - b);
      const figures = {
        accounts: every.statements.length,
        warm_s: Math.round(warmS * 10) / 10,
        year_s: Math.round(yearS * 10) / 10,
        requests,
        min_requests: minRequests,
        reconciled,
        month_ms: Math.round(months[Math.floor(months.length / 2)]!),
      };
      const targets = { month_ms: '< 1000', reconciled: `>= ${every.statements.length}` };
      reportTargets(figures, targets);
      console.log(JSON.stringify({ ...figures, targets }));
    } finally {
      await core.close();
    }
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
