import { TotalBalance } from '../../shared/api/records.ts';
import { join } from 'node:path';
import type { ApiClient } from '../../electron/core/client/client.ts';
import { Journal } from '../../electron/core/journal/journal.ts';
import { HistoryCache } from '../../electron/core/sync/historyCache.ts';
import { everyRecord } from '../../electron/core/client/pagination.ts';
import { subAccountBalancesAllAtOnce, subAccountSpotBalances } from '../../electron/core/client/subAccountBalances.ts';
import { windowedRecords } from '../../electron/core/sync/windows.ts';
import { WriteExecutor } from '../../electron/core/writes/executor.ts';
import { fileJournalKey } from '../../electron/core/journal/mac.ts';

// The desk's side of the benchmark, composed only of the core's own modules: the client and its
// scheduler, the sync iterators, the history cache and the write executor. Nothing here paces or
// batches requests itself; that is the scheduler's job.

export interface RefreshResult {
  ms: number;
  requests: number;
  subAccounts: number;
  withdrawals: number;
  deposits: number;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/**
 * The Overview's refresh: total balance, the four kinds of sub-account balances and the withdrawals and
 * deposits of [from, to], all handed to the scheduler at once (different buckets go in parallel).
 */
export async function deskRefresh(client: ApiClient, from: number, to: number): Promise<RefreshResult> {
  const before = client.requestCount;
  const t0 = performance.now();
  const [, spot, margin, futures, cross, withdrawals, deposits] = await Promise.all([
    client.request({ method: 'GET', path: '/wallet/total_balance' }, TotalBalance),
    collect(subAccountSpotBalances(client)),
    subAccountBalancesAllAtOnce(client, '/wallet/sub_account_margin_balances').then(everyRecord),
    subAccountBalancesAllAtOnce(client, '/wallet/sub_account_futures_balances').then(everyRecord),
    subAccountBalancesAllAtOnce(client, '/wallet/sub_account_cross_margin_balances').then(everyRecord),
    collect(windowedRecords(client, { path: '/wallet/withdrawals', from, to })),
    collect(windowedRecords(client, { path: '/wallet/deposits', from, to })),
  ]);
  const ms = performance.now() - t0;
  const uids = new Set([spot, margin, futures, cross].flatMap((list) => list.map((r) => r.uid)));
  return { ms, requests: client.requestCount - before, subAccounts: uids.size, withdrawals: withdrawals.length, deposits: deposits.length };
}

export interface HistoryResult {
  ms: number;
  requests: number;
  withdrawals: number;
}

/** Every withdrawal of [from, to] with nothing cached: the iterator the history cache reads with (30-day windows, limit 1000). */
export async function deskHistoryCold(client: ApiClient, from: number, to: number): Promise<HistoryResult> {
  const before = client.requestCount;
  const t0 = performance.now();
  const rows = await collect(windowedRecords(client, { path: '/wallet/withdrawals', from, to, priority: 'background' }));
  return { ms: performance.now() - t0, requests: client.requestCount - before, withdrawals: rows.length };
}

/** The history cache of a profile: a cold sync fills its file; later syncs read only what is new. */
export function historyCache(client: ApiClient, dir: string): HistoryCache {
  return new HistoryCache({ client, dir: join(dir, 'history'), kinds: ['withdrawals', 'deposits'] });
}

export interface BatchResult {
  makespanS: number;
  accepted: number;
  /** Seconds from hand-over to each accepted answer, in order. */
  acceptedAtS: number[];
  states: Record<string, number>;
}

export interface WithdrawalOrder {
  currency: string;
  chain: string;
  address: string;
  amounts: string[];
}

/**
 * Hands every withdrawal to the write executor at once (journal in `dir`) and times hand-over to the
 * last accepted answer. Each one is journaled, approved and sent by the executor; the scheduler spaces
 * them by the withdrawal bucket (§8.2: 1 per 3 s per UID).
 */
export async function deskBatch(client: ApiClient, dir: string, order: WithdrawalOrder): Promise<BatchResult> {
  const journal = Journal.open(join(dir, 'journal.jsonl'), { key: fileJournalKey(join(dir, 'journal.key')) });
  const executor = new WriteExecutor({ journal, client });
  const acceptedAt: number[] = [];
  let t0 = 0;
  executor.on((e) => {
    if (e.record === 'result' && e.intent.state === 'accepted') acceptedAt.push((performance.now() - t0) / 1000);
  });
  try {
    t0 = performance.now();
    const views = await Promise.all(
      order.amounts.map((amount, i) =>
        executor.submit(
          { kind: 'withdrawal', input: { currency: order.currency, amount, address: order.address, chain: order.chain } },
          'bench',
          `batch ${i + 1} of ${order.amounts.length}`,
        ),
      ),
    );
    const states: Record<string, number> = {};
    for (const v of views) states[v.state] = (states[v.state] ?? 0) + 1;
    return { makespanS: acceptedAt.length ? acceptedAt.at(-1)! : NaN, accepted: acceptedAt.length, acceptedAtS: acceptedAt, states };
  } finally {
    await executor.stop();
    journal.close();
  }
}
