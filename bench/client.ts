import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../electron/core/client/client.ts';
import { launchSandbox, type SandboxProcess } from '../electron/sandbox-launcher.ts';
import { SandboxAdmin } from './client/admin.ts';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { deskBatch, deskHistoryCold, deskRefresh, historyCache } from './client/desk.ts';
import { historyMinimum, refreshMinimum } from './client/minimums.ts';
import { Peer } from './client/peer.ts';
import { CountingTransport } from './client/transport.ts';
import { size, SMOKE, WORLD } from './size.ts';

// `npm run bench -- client` (docs/benchmarks.md §client; also `npx tsx bench/client.ts`). One Sandbox `--world bench` with
// its rate limits on; the desk and ccxt (the peer, docs/benchmarks.md §client) each get their
// own copy of the world through the admin API, so they never share a UID's budget. Phases run one after
// the other so that the two clients do not compete for the machine:
//   refresh  total balance, the four sub-account balance reads for 1,000 sub-accounts, and 30 days of
//            withdrawals and deposits; desk, then ccxt.
//   history  every withdrawal of the year in 30-day windows, cold; ccxt, then the desk.
//   batch    20 withdrawals handed to the write executor at once; hand-over to the 20th accepted answer.
//   warm     a history-cache sync after the batch and a few credited deposits (the cache was filled by
//            a cold sync before the batch).
// Progress goes to stderr; the last line on stdout is one JSON object.

const ROOT = join(import.meta.dirname, '..');
const BATCH = size(20, 2);
const WITHDRAW_INTERVAL_S = 3; // §8.2: POST /withdrawals, 1 per 3 s per UID
// USDT on TRX accepts withdrawals in the bench world (simulator/ledger/catalog.ts: minimum 10, fee 1,
// review from 20,000); the address is an outside TRX address, as the Sandbox's own tests use.
const ORDER = {
  currency: 'USDT',
  chain: 'TRX',
  address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA',
  amounts: Array.from({ length: BATCH }, (_, i) => `${12 + i}.25`),
};
const NEW_DEPOSITS = ['15', '250.5', '3100'];

const log = (line: string): void => {
  process.stderr.write(`bench client: ${line}\n`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;

let sandbox: SandboxProcess | undefined;
let dir: string | undefined;

async function cleanUp(): Promise<void> {
  await sandbox?.stop();
  sandbox = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    log(`${sig}: stopping the Sandbox`);
    void cleanUp().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  });
}

/** Problems that make a figure meaningless (a client that read less than all is not faster). */
const problems: string[] = [];
function expectEqual(what: string, got: number, want: number): void {
  if (got !== want) problems.push(`${what}: got ${got}, expected ${want}`);
}

async function main(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'bench-client-'));
  let t = performance.now();
  sandbox = await launchSandbox({ dataDir: join(dir, 'sandbox'), root: ROOT, extraArgs: ['--world', WORLD], timeoutMs: 180_000 });
  const creds = readSandboxCredentials(sandbox.credentialsPath);
  const admin = new SandboxAdmin(creds);
  if (!(await admin.limitsEnabled())) throw new Error('the Sandbox answers with its rate limits off; this benchmark needs them on');
  const deskKey = await admin.copyWorld();
  const peerKey = await admin.copyWorld();
  log(
    `Sandbox (pid ${sandbox.child.pid}) at ${creds.base_url}, limits on; desk on main account ${deskKey.uid}, ccxt on ${peerKey.uid} (${round((performance.now() - t) / 1000, 1)} s)`,
  );

  const wire = new CountingTransport(creds.base_url);
  const desk = new ApiClient({ baseUrl: creds.base_url, credentials: deskKey, fetch: wire.fetch });
  const peer = new Peer(creds.base_url, peerKey);

  // Refresh.
  const now = await admin.nowSec();
  const deskMin = await refreshMinimum(admin, deskKey.uid, now);
  const peerMin = await refreshMinimum(admin, peerKey.uid, now);
  log(`refresh minimum: S=${deskMin.subAccounts} W=${deskMin.withdrawals} D=${deskMin.deposits} (30 days) -> ${deskMin.requests} requests`);
  let mark = wire.mark;
  const refresh = await deskRefresh(desk, deskMin.from, deskMin.to);
  const refreshWire = wire.since(mark).length;
  const refreshServer = wire.sandboxCount(mark);
  const refresh429 = wire.tooMany(mark);
  expectEqual('desk refresh: sub-accounts read', refresh.subAccounts, deskMin.subAccounts);
  expectEqual('desk refresh: withdrawals read', refresh.withdrawals, deskMin.withdrawals);
  expectEqual('desk refresh: deposits read', refresh.deposits, deskMin.deposits);
  log(
    `desk refresh: ${round(refresh.ms)} ms, ${refresh.requests} requests by its client's counter, ${refreshWire} on the wire, ${refreshServer.count} counted by the Sandbox${refreshServer.exact ? '' : ' (not exact: windows overlapped)'}, ${refresh429} x 429`,
  );
  let peer429 = peer.tooMany;
  let peerRequests = peer.requests;
  const ccxtRefresh = await peer.refresh(peerMin.from, peerMin.to);
  const ccxtRefresh429 = peer.tooMany - peer429;
  expectEqual('ccxt refresh: sub-accounts read', ccxtRefresh.subAccounts, peerMin.subAccounts);
  expectEqual('ccxt refresh: withdrawals read', ccxtRefresh.withdrawals, peerMin.withdrawals);
  expectEqual('ccxt refresh: deposits read', ccxtRefresh.deposits, peerMin.deposits);
  log(`ccxt refresh: ${round(ccxtRefresh.ms)} ms, ${peer.requests - peerRequests} requests, ${ccxtRefresh429} x 429`);

  // History, cold.
  const yearEnd = await admin.nowSec();
  const deskHistMin = await historyMinimum(admin, deskKey.uid, yearEnd);
  const peerHistMin = await historyMinimum(admin, peerKey.uid, yearEnd);
  log(
    `history minimum: ${deskHistMin.total} withdrawals in ${deskHistMin.windows.length} windows (${deskHistMin.windows.map((w) => w.n).join(' ')}) -> ${deskHistMin.requests} requests`,
  );
  peer429 = peer.tooMany;
  peerRequests = peer.requests;
  const ccxtHistory = await peer.history(peerHistMin.from, peerHistMin.to);
  expectEqual('ccxt history: withdrawals read', ccxtHistory.withdrawals, peerHistMin.total);
  log(`ccxt history: ${round(ccxtHistory.ms)} ms, ${peer.requests - peerRequests} requests, ${peer.tooMany - peer429} x 429`);
  // So that the Sandbox's window count of the desk's withdrawals endpoint starts empty (refresh used it).
  const quietMs = size(11_000, 0) - (performance.now() - (wire.log.at(-1)?.at ?? 0));
  if (quietMs > 0) await sleep(quietMs);
  mark = wire.mark;
  const history = await deskHistoryCold(desk, deskHistMin.from, deskHistMin.to);
  const historyServer = wire.sandboxCount(mark);
  expectEqual('desk history: withdrawals read', history.withdrawals, deskHistMin.total);
  log(
    `desk history (cold): ${round(history.ms)} ms, ${history.requests} requests by its client's counter, ${wire.since(mark).length} on the wire, ${historyServer.count} counted by the Sandbox${historyServer.exact ? '' : ' (not exact: windows overlapped)'}, ${wire.tooMany(mark)} x 429`,
  );

  // The history cache's own cold sync (withdrawals and deposits of the year), so that a warm sync has a "last sync".
  const cache = historyCache(desk, dir);
  t = performance.now();
  mark = wire.mark;
  const prime = await cache.sync();
  log(
    `desk history cache, cold sync: ${prime.requests} requests, ${prime.newWithdrawals} withdrawals and ${prime.newDeposits} deposits, ${round((performance.now() - t) / 1000, 1)} s, ${wire.tooMany(mark)} x 429`,
  );

  // Batch.
  mark = wire.mark;
  const batch = await deskBatch(desk, dir, ORDER);
  const batch429 = wire.tooMany(mark);
  expectEqual('batch: withdrawals accepted', batch.accepted, BATCH);
  const gaps = batch.acceptedAtS.slice(1).map((s, i) => s - batch.acceptedAtS[i]!);
  log(
    `batch: ${batch.accepted}/${BATCH} accepted (${JSON.stringify(batch.states)}), makespan ${round(batch.makespanS, 3)} s, first answer at ${round(batch.acceptedAtS[0] ?? NaN, 3)} s, gaps ${round(Math.min(...gaps), 3)}..${round(Math.max(...gaps), 3)} s, ${batch429} x 429`,
  );

  // Warm: records new since the cache's last sync (the batch's withdrawals and a few deposits).
  for (const amount of NEW_DEPOSITS) await admin.creditDeposit(deskKey.uid, 'USDT', amount);
  mark = wire.mark;
  const warm = await cache.sync();
  expectEqual('warm sync: new withdrawals', warm.newWithdrawals, batch.accepted);
  expectEqual('warm sync: new deposits', warm.newDeposits, NEW_DEPOSITS.length);
  log(
    `desk history cache, warm sync: ${warm.requests} requests (${wire.since(mark).length} on the wire), ${warm.newWithdrawals} new withdrawals, ${warm.newDeposits} new deposits`,
  );

  const deskAll429 = wire.tooMany(0);
  const figures = {
    refresh_ms: round(refresh.ms),
    refresh_requests: refresh.requests,
    refresh_min_requests: deskMin.requests,
    refresh_429: refresh429,
    ccxt_refresh_ms: round(ccxtRefresh.ms),
    ccxt_refresh_429: ccxtRefresh429,
    history_cold_ms: round(history.ms),
    history_cold_requests: history.requests,
    history_min_requests: deskHistMin.requests,
    ccxt_history_ms: round(ccxtHistory.ms),
    history_warm_requests: warm.requests,
    batch_makespan_s: round(batch.makespanS, 3),
    batch_bound_s: WITHDRAW_INTERVAL_S * (BATCH - 1),
    batch_429: batch429,
  };

  const targets: Array<[string, boolean]> = [
    [`no 429 for the desk anywhere in the run (${deskAll429})`, deskAll429 === 0],
    ['refresh_requests = refresh_min_requests', figures.refresh_requests === figures.refresh_min_requests],
    [
      `refresh_requests matches the wire (${refreshWire}) and the Sandbox's count (${refreshServer.count}${refreshServer.exact ? '' : ', not exact'})`,
      refreshWire === refresh.requests && (!refreshServer.exact || refreshServer.count === refresh.requests),
    ],
    [
      `refresh_ms <= 0.5 x ccxt_refresh_ms (${figures.refresh_ms} vs ${round(0.5 * figures.ccxt_refresh_ms)})`,
      figures.refresh_ms <= 0.5 * figures.ccxt_refresh_ms,
    ],
    ['history_cold_requests = history_min_requests', figures.history_cold_requests === figures.history_min_requests],
    [
      `history_cold_ms <= 0.5 x ccxt_history_ms (${figures.history_cold_ms} vs ${round(0.5 * figures.ccxt_history_ms)})`,
      figures.history_cold_ms <= 0.5 * figures.ccxt_history_ms,
    ],
    ['history_warm_requests <= 2', figures.history_warm_requests <= 2],
    [
      `batch_makespan_s within 1 s of batch_bound_s (${figures.batch_makespan_s} vs ${figures.batch_bound_s})`,
      Math.abs(figures.batch_makespan_s - figures.batch_bound_s) <= 1,
    ],
  ];
  // A smoke run is too small for its figures to mean anything; what it read must still be right.
  if (!SMOKE) for (const [what, met] of targets) log(`${met ? 'met   ' : 'MISSED'} ${what}`);
  for (const p of problems) log(`PROBLEM ${p}`);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  if (problems.length || (!SMOKE && targets.some(([, met]) => !met))) process.exitCode = 1;
}

main()
  .catch((e: unknown) => {
    log(`failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
