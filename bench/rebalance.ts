import { z } from 'zod';
import { SubAccountSpotBalance } from '../shared/api/records.ts';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiClient } from '../electron/core/client/client.ts';
import { Journal } from '../electron/core/journal/journal.ts';
import { fileJournalKey } from '../electron/core/journal/mac.ts';
import { readBalances } from '../electron/core/rebalance/balances.ts';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { BatchRun } from '../electron/core/rebalance/batch.ts';
import { preApproved } from '../electron/core/rebalance/testkit/preApproved.ts';
import { plan, type Plan } from '../electron/core/rebalance/planner.ts';
import { tally } from '../electron/core/rebalance/report.ts';
import { equalize, type InScope } from '../electron/core/rebalance/targets.ts';
import { WriteExecutor } from '../electron/core/writes/executor.ts';
import { launchSandbox } from '../electron/sandbox-launcher.ts';
import { size, WORLD } from './size.ts';

// `npm run bench -- rebalance` (docs/benchmarks.md §rebalance). A Sandbox `--world bench` with its rate limits on; the first
// ACCOUNTS sub-accounts' USDT spot balances, read with the main key, planned to equal shares:
//   planner_ms  the median of RUNS plans of those balances after one warm-up (the machine is shared).
//   makespan_s  from the batch's start (its approval) to the last transfer's settled answer, through the
//               desk's journal, write executor and scheduler (BatchRun, 8 transfers under way at once).
//   bound_s     the least time §8.2 allows: over the endpoints used, the largest (⌈N/80⌉ − 1) × 10 s.
//   twice       transfers the Sandbox holds more than once (its transfers table, same from, to, amount).
//   http_429    429 answers the desk received.
//   reached     accounts whose balance afterwards equals the plan's.
// The last line is one JSON object.

const ROOT = join(import.meta.dirname, '..');
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? size(400, 6));
const RUNS = Number(process.env.BENCH_RUNS ?? size(101, 3));
const log = (s: string) => process.stderr.write(`bench rebalance: ${s}\n`);
const ms = (x: number) => Math.round(x * 1000) / 1000;

function boundSeconds(p: Plan): number {
  const perEndpoint = new Map<string, number>();
  for (const t of p.transfers) for (const l of t.legs) perEndpoint.set(l.endpoint, (perEndpoint.get(l.endpoint) ?? 0) + 1);
  return Math.max(0, ...[...perEndpoint.values()].map((n) => (Math.ceil(n / 80) - 1) * 10));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rebalance-'));
  const sandbox = await launchSandbox({ root: ROOT, dataDir: join(dir, 'sandbox'), extraArgs: ['--world', WORLD], timeoutMs: 120_000 });
  try {
    const creds = readSandboxCredentials(sandbox.credentialsPath);
    let http429 = 0;
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (res.status === 429) http429++;
      return res;
    };
    const client = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main, fetch: counting });

    const subs: { uid: string; available: Record<string, string> }[] = [];
    for (let page = 1; subs.length < ACCOUNTS; page++) {
      const rows = await client.request(
        {
          method: 'GET',
          path: '/wallet/sub_account_balances',
          query: [
            ['page', String(page)],
            ['limit', '100'],
          ],
        },
        z.array(SubAccountSpotBalance),
      );
      if (!rows.length) break;
      subs.push(...rows);
    }
    const scope: InScope[] = equalize(
      subs.slice(0, ACCOUNTS).map((s) => ({ account: { owner: s.uid, kind: 'spot' }, balance: s.available.USDT ?? '0' })),
    );

    plan('USDT', scope);
    const times: number[] = [];
    let p!: Plan;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      p = plan('USDT', scope);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const plannerMs = ms(times[Math.floor(times.length / 2)]!);
    log(`${p.transfers.length} transfers moving ${p.moved} USDT of ${p.total}; remainder ${p.remainder}; planned in ${plannerMs} ms`);

    const journalPath = join(dir, 'journal.jsonl');
    const journal = Journal.open(journalPath, { key: fileJournalKey(join(dir, 'journal.key')) });
    const executor = new WriteExecutor({ journal, client });
    // The rows as the approved batch carries them (the approval itself is not timed: it waits for people).
    const approved = preApproved(p, 'bench', 'bench');
    const sandboxStart = Math.floor(Date.now() / 1000) - 1;
    const t0 = performance.now();
    let logged = 0;
    const out = await new BatchRun({
      journal,
      sender: executor,
      approved,
      currency: 'USDT',
      readBalances: (a, c) => readBalances(client, a, c),
      onProgress: (rows) => {
        const done = rows.filter((r) => r.state === 'done').length;
        if (Math.floor(done / 80) > logged) {
          logged = Math.floor(done / 80);
          log(`${done} done at ${((performance.now() - t0) / 1000).toFixed(2)} s`);
        }
      },
    }).run();
    const makespan = (performance.now() - t0) / 1000;
    await executor.stop();
    journal.close();
    log(`report: ${JSON.stringify(tally(out.rows))}`);

    const after = new Map<string, string>();
    for (let page = 1; after.size < subs.length; page++) {
      const rows = await client.request(
        {
          method: 'GET',
          path: '/wallet/sub_account_balances',
          query: [
            ['page', String(page)],
            ['limit', '100'],
          ],
        },
        z.array(SubAccountSpotBalance),
      );
      if (!rows.length) break;
      for (const r of rows) after.set(r.uid, r.available.USDT ?? '0');
    }
    const reached = p.accounts.filter((a) => after.get(a.account.owner) === a.after).length;
    const db = new Database(join(dir, 'sandbox', 'sandbox.sqlite'), { readonly: true, fileMustExist: true });
    const twice = (
      db
        .prepare(
          `SELECT COALESCE(SUM(n - 1), 0) AS extra FROM (SELECT COUNT(*) AS n FROM transfers
      WHERE kind = 'sub_sub' AND timest >= ? GROUP BY from_uid, to_uid, amount)`,
        )
        .get(sandboxStart) as { extra: number }
    ).extra;
    db.close();

    console.log(
      JSON.stringify({
        accounts: ACCOUNTS,
        transfers: p.transfers.length,
        planner_ms: plannerMs,
        makespan_s: Math.round(makespan * 100) / 100,
        bound_s: boundSeconds(p),
        twice,
        http_429: http429,
        reached,
      }),
    );
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
