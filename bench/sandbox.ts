import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result } from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import type { MemorySample } from './memoryProbe.ts';
import { SandboxAdmin } from './client/admin.ts';
import { build, load, ROOT, start, statusSummary, stopAll, type Spec } from './load.ts';
import { size, SMOKE } from './size.ts';
import { reportTargets } from './targets.ts';

// `npm run bench -- sandbox` (docs/benchmarks.md §sandbox). The Sandbox runs as a child process with --no-limits; the load
// generator (autocannon) runs here.
//  1. signed GET /wallet/total_balance, 50 connections, against a bare fastify route (also a child)
//     answering the same body to the same request under the same load in the same run (a tiny-body
//     route is measured too, for reference, on stderr). The bare route gets the very bytes the Sandbox
//     gets, signature headers and re-signing included: a bare `GET /same` (one header, 40 bytes against
//     290) charged the Sandbox for parsing the client's bigger request, about 4 us of the bare server's
//     CPU per request (an eighth of it) and 2 us of the load generator's (docs/benchmarks.md §sandbox). The two are
//     interleaved, and each round swaps which goes first (bare, signed; signed, bare; ...), so that a
//     machine that speeds up or slows down mid-run, or a run that warms the next, moves both alike; the
//     ratio reported is the median of the per-round ratios, of five rounds of 6 s (three of 10 s ranged
//     0.68 to 0.80 on a quiet run: their median moved with a single round).
//  2. mixed load (signed reads of several endpoints, transfers and withdrawals). Memory is judged by
//     what a leak would move: what the Sandbox still holds right after a full garbage collection, asked
//     three times over the first minute after the warm-up and three times over the last minute (the
//     lowest of each three counts). The load writes records all along (the store grows by megabytes a
//     minute, printed beside RSS as store_*_mb), so what this catches is memory that grows with the data
//     or with the requests: it caught SQLite's page cache filling to the 16 MB better-sqlite3 builds it
//     with (docs/performance.md §Sandbox memory; the Sandbox now bounds it to 2 MB, simulator/db.ts).
//     Without the collection, the figure read where the collector happened to be: the minimum RSS over a
//     minute, sampled each second, moved -0.2 % to +8.5 % from run to run on the same code while the
//     heap after a forced GC stayed within 0.4 MB (docs/performance.md §Sandbox memory), because V8 lets its old generation grow
//     between major collections by an amount that depends on their timing. V8's young generation is left
//     out too (the probe reads both at the same instant): V8 sizes it to the allocation rate, up to a
//     fixed 16 MB a semi-space; the idle pauses of the throughput runs shrink it to 2 MB and the mixed
//     load grows it back to 32 MB, +30 MB of RSS that no leak causes. The raw minimum RSS over each
//     minute (rss_min_*) and the heap after each collection (heap_after_gc_*) are printed beside it.
// Timestamps must stay within 60 s of the server, so every connection is re-signed once a second from
// setupClient (the request buffers are rebuilt once a second, not per request).
//
// BENCH_SECONDS (default 6): length of each throughput run; BENCH_ROUNDS (5): bare/signed pairs;
// BENCH_WARMUP_SECONDS (30) and BENCH_MIXED_SECONDS (300): the mixed load. The last line printed is
// one JSON object.

const SECONDS = Number(process.env.BENCH_SECONDS ?? size(6, 1));
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? size(5, 1)));
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? size(30, 1));
const MIXED = Number(process.env.BENCH_MIXED_SECONDS ?? size(300, 2));
/** The untimed first run of each route, so that neither is measured cold. */
const COLD_SECONDS = size(3, 1);
const CONNECTIONS = 50;
/** Span over which the minimum RSS is taken at the start and at the end of the mixed load. */
const MEMORY_WINDOW_SEC = 60;
/** Targets (docs/benchmarks.md §sandbox), printed beside the figures; "flat" memory is at most 5% growth outside the young generation. */
const TARGETS = { signed_bare_ratio: '>= 0.75', p99_ms: '<= 5', rss_growth_pct: '<= 5' };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface Sample {
  /** Seconds from the start of the mixed load. */
  at: number;
  rssMb: number;
  /** Resident size less V8's young generation. */
  outsideYoungMb: number;
  heapUsedMb: number;
  /** V8's committed heap outside its young generation: old-space pages kept, used or not. */
  oldCommittedMb: number;
  externalMb: number;
  /** Taken right after a full collection. */
  collected: boolean;
}

/** How many full collections are asked over each of the two minutes memory is judged on. */
const COLLECTIONS = 3;

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/**
 * The child's memory probe's samples (one a second) while `run` goes on, and those it takes after a full
 * collection asked at each of `collectAt` (seconds from now).
 */
async function sampleMemory<T>(child: ChildProcess, run: Promise<T>, collectAt: number[]): Promise<{ result: T; samples: Sample[] }> {
  const t0 = Date.now();
  const samples: Sample[] = [];
  const onMessage = (m: { memoryProbe?: MemorySample }) => {
    const p = m.memoryProbe;
    if (p)
      samples.push({
        at: (Date.now() - t0) / 1000,
        rssMb: mb(p.rss),
        outsideYoungMb: mb(p.rss - p.young),
        heapUsedMb: mb(p.heapUsed),
        oldCommittedMb: mb(p.heapTotal - p.young),
        externalMb: mb(p.external),
        collected: p.collected === true,
      });
  };
  child.on('message', onMessage);
  const timers = collectAt.map((sec) => setTimeout(() => child.send({ memoryProbe: 'collect' }), sec * 1000));
  try {
    return { result: await run, samples };
  } finally {
    for (const t of timers) clearTimeout(t);
    child.off('message', onMessage);
  }
}

/** The store's size on disk (database and WAL), MB. */
function storeMb(dataDir: string): number {
  const size = (f: string) => statSync(join(dataDir, f), { throwIfNoEntry: false })?.size ?? 0;
  return Math.round(((size('sandbox.sqlite') + size('sandbox.sqlite-wal')) / 1048576) * 10) / 10;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
  try {
    const sandbox = await start(
      [
        '--expose-gc',
        '--import',
        join(ROOT, 'bench', 'memoryProbe.ts'),
        join(ROOT, 'simulator', 'main.ts'),
        '--port',
        '0',
        '--data',
        dataDir,
        '--no-limits',
      ],
      /^Sandbox listening on (\S+)$/,
    );
    const creds = readSandboxCredentials(join(dataDir, 'credentials.json'));
    const base = new URL(creds.base_url);
    const prefix = base.pathname;
    const origin = base.origin;
    const main = creds.main;
    const tb: Spec[] = [{ method: 'GET', path: '/wallet/total_balance', key: main }];

    // The bare route answers the very body the Sandbox answers, so both runs move the same bytes.
    const [sample] = build(prefix, tb);
    const res = await fetch(`${origin}${sample!.path}`, { headers: sample!.headers as Record<string, string> });
    if (!res.ok) throw new Error(`the Sandbox answered ${res.status} to the sample request: ${await res.text()}`);
    const bodyFile = join(dataDir, 'bare-body.json');
    writeFileSync(bodyFile, await res.text());
    const bare = await start([join(ROOT, 'bench', 'bare-server.ts')], /^bare listening on (\S+)$/, {
      BARE_BODY_FILE: bodyFile,
      BARE_PATH: `${prefix}${tb[0]!.path}`,
    });
    // The same requests to both: what differs is the server.
    const runBare = (duration: number) => load(bare.url, { connections: CONNECTIONS, duration, specs: tb, prefix });
    const runSigned = (duration: number) => load(origin, { connections: CONNECTIONS, duration, specs: tb, prefix });

    // A short run of each first, so that neither is measured cold.
    const coldBare = await runBare(COLD_SECONDS);
    if (coldBare['2xx'] === 0 || coldBare.non2xx > 0)
      throw new Error(`the bare route did not answer the Sandbox's request: ${statusSummary(coldBare)}`);
    await runSigned(COLD_SECONDS);

    const tinyRun = await load(bare.url, { connections: CONNECTIONS, duration: SECONDS, path: '/tiny' });
    process.stderr.write(
      `bare fastify, tiny body (reference only): ${tinyRun.requests.average} req/s, p50 ${tinyRun.latency.p50} ms, p99 ${tinyRun.latency.p99} ms (${statusSummary(tinyRun)})\n`,
    );
    const rounds: Array<{ bare: Result; signed: Result }> = [];
    for (let i = 1; i <= ROUNDS; i++) {
      let bareRun: Result, signedRun: Result;
      if (i % 2 === 1) {
        bareRun = await runBare(SECONDS);
        signedRun = await runSigned(SECONDS);
      } else {
        signedRun = await runSigned(SECONDS);
        bareRun = await runBare(SECONDS);
      }
      if (signedRun.non2xx > 0 || signedRun.errors > 0) throw new Error(`signed run ${i} had failures: ${statusSummary(signedRun)}`);
      if (bareRun.non2xx > 0 || bareRun.errors > 0) throw new Error(`bare run ${i} had failures: ${statusSummary(bareRun)}`);
      rounds.push({ bare: bareRun, signed: signedRun });
      process.stderr.write(
        `round ${i}: bare route ${bareRun.requests.average} req/s; signed GET /wallet/total_balance ${signedRun.requests.average} req/s, p50 ${signedRun.latency.p50} ms, p99 ${signedRun.latency.p99} ms; ratio ${(signedRun.requests.average / bareRun.requests.average).toFixed(3)}\n`,
      );
    }

    // Mixed load: reads of several endpoints by the main account and a sub-account, transfers that go
    // back and forth (so that balances hold out), main/sub transfers and withdrawals.
    const sub = creds.sub_accounts[0]!;
    const body = (o: unknown) => JSON.stringify(o);
    const mixed: Spec[] = [
      { method: 'GET', path: '/wallet/total_balance', key: main },
      { method: 'GET', path: '/wallet/sub_account_balances', query: 'page=1&limit=100', key: main },
      { method: 'GET', path: '/wallet/withdrawals', query: 'limit=100', key: main },
      { method: 'GET', path: '/wallet/deposits', query: 'currency=USDT', key: main },
      { method: 'GET', path: '/spot/accounts', key: main },
      { method: 'GET', path: '/futures/usdt/accounts', key: main },
      { method: 'GET', path: '/wallet/withdraw_status', query: 'currency=USDT', key: main },
      { method: 'GET', path: '/wallet/total_balance', query: 'currency=BTC', key: sub },
      {
        method: 'POST',
        path: '/wallet/transfers',
        body: body({ currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '1.5' }),
        key: main,
      },
      {
        method: 'POST',
        path: '/wallet/transfers',
        body: body({ currency: 'USDT', from: 'futures', to: 'spot', settle: 'usdt', amount: '1.5' }),
        key: main,
      },
      {
        method: 'POST',
        path: '/wallet/sub_account_transfers',
        body: body({ sub_account: sub.uid, currency: 'USDT', amount: '0.25', direction: 'to' }),
        key: main,
      },
      {
        method: 'POST',
        path: '/wallet/sub_account_transfers',
        body: body({ sub_account: sub.uid, currency: 'USDT', amount: '0.25', direction: 'from' }),
        key: main,
      },
      {
        method: 'POST',
        path: '/withdrawals',
        body: body({ currency: 'USDT', chain: 'TRX', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', amount: '10' }),
        key: main,
      },
    ];
    // The load withdraws 10 USDT a few hundred times a second: more than the main account holds (500,000
    // to 800,000) within a couple of minutes, after which each withdrawal was refused. With 4,000,000 more
    // (the daily limit is 5,000,000) it lasts about 20 minutes at 4,400 requests a second; a run that
    // still meets a refusal stops (below) rather than measure another mix.
    await new SandboxAdmin(creds).creditDeposit(main.uid, 'USDT', '4000000');
    let storeStart = NaN;
    const warmedUp = setTimeout(() => (storeStart = storeMb(dataDir)), WARMUP * 1000);
    const span = Math.min(MEMORY_WINDOW_SEC, MIXED / 2);
    // Spread over each minute, the last of the end's well before the load stops.
    const step = span / (COLLECTIONS + 1);
    const collectAt = Array.from({ length: COLLECTIONS }, (_, i) => [
      WARMUP + step * (i + 1),
      WARMUP + MIXED - span + step * (i + 1),
    ]).flat();
    const { result: mixedRun, samples } = await sampleMemory(
      sandbox.child,
      load(origin, { connections: 20, duration: WARMUP + MIXED, specs: mixed, prefix }),
      collectAt,
    );
    clearTimeout(warmedUp);
    if (mixedRun.non2xx > 0 || mixedRun.errors > 0) throw new Error(`the mixed load had failures: ${statusSummary(mixedRun)}`);
    const storeEnd = storeMb(dataDir);
    const minOver = (from: number, to: number, of: (s: Sample) => number, collected: boolean) => {
      const xs = samples.filter((s) => s.at >= from && s.at <= to && s.collected === collected).map(of);
      if (xs.length === 0)
        throw new Error(`no ${collected ? 'collected ' : ''}memory sample between ${from} and ${to} s of the mixed load`);
      return Math.min(...xs);
    };
    // A collection's answer comes back while the load goes on: each window reaches a little past its span.
    const atStart = (of: (s: Sample) => number, collected = false) => minOver(WARMUP, WARMUP + span + 1, of, collected);
    const atEnd = (of: (s: Sample) => number, collected = false) => minOver(WARMUP + MIXED - span, WARMUP + MIXED + 1, of, collected);
    const rssStart = atStart((s) => s.rssMb);
    const rssEnd = atEnd((s) => s.rssMb);
    const outsideStart = atStart((s) => s.outsideYoungMb, true);
    const outsideEnd = atEnd((s) => s.outsideYoungMb, true);
    const heapStart = atStart((s) => s.heapUsedMb, true);
    const heapEnd = atEnd((s) => s.heapUsedMb, true);
    // Where the resident size outside the young generation lives: V8's committed old space, and what lies
    // outside V8's heap (external objects, SQLite, the runtime's allocations).
    const committedStart = atStart((s) => s.oldCommittedMb, true);
    const committedEnd = atEnd((s) => s.oldCommittedMb, true);
    const externalStart = atStart((s) => s.externalMb, true);
    const externalEnd = atEnd((s) => s.externalMb, true);
    const peak = Math.max(...samples.filter((s) => s.at >= WARMUP).map((s) => s.rssMb));
    const growth = (from: number, to: number) => Math.round(((to - from) / from) * 1000) / 10;
    process.stderr.write(
      `mixed load ${WARMUP}+${MIXED} s: ${mixedRun.requests.average} req/s (${statusSummary(mixedRun)}); minimum RSS over ${span} s ${rssStart} MB at the start -> ${rssEnd} MB at the end (peak ${peak} MB); after a full GC, outside the young generation ${outsideStart} -> ${outsideEnd} MB, heap used ${heapStart} -> ${heapEnd} MB, V8's committed heap outside the young generation ${committedStart} -> ${committedEnd} MB, external ${externalStart} -> ${externalEnd} MB; store on disk ${storeStart} -> ${storeEnd} MB\n`,
    );

    const ratios = rounds.map((r) => r.signed.requests.average / r.bare.requests.average);
    const figures = {
      signed_get_rps: Math.round(median(rounds.map((r) => r.signed.requests.average))),
      bare_rps: Math.round(median(rounds.map((r) => r.bare.requests.average))),
      signed_bare_ratio: Math.round(median(ratios) * 1000) / 1000,
      ratio_range: [Math.round(Math.min(...ratios) * 1000) / 1000, Math.round(Math.max(...ratios) * 1000) / 1000],
      p50_ms: median(rounds.map((r) => r.signed.latency.p50)),
      p99_ms: median(rounds.map((r) => r.signed.latency.p99)),
      // The bare route's own p99 under the same load: on a busy machine it says how much of p99_ms is the machine.
      bare_p99_ms: median(rounds.map((r) => r.bare.latency.p99)),
      rss_min_start_mb: rssStart,
      rss_min_end_mb: rssEnd,
      rss_peak_mb: peak,
      rss_after_gc_less_young_start_mb: outsideStart,
      rss_after_gc_less_young_end_mb: outsideEnd,
      rss_growth_pct: growth(outsideStart, outsideEnd),
      raw_rss_growth_pct: growth(rssStart, rssEnd),
      heap_after_gc_start_mb: heapStart,
      heap_after_gc_end_mb: heapEnd,
      old_heap_committed_after_gc_start_mb: committedStart,
      old_heap_committed_after_gc_end_mb: committedEnd,
      external_after_gc_start_mb: externalStart,
      external_after_gc_end_mb: externalEnd,
      // What the load wrote meanwhile: memory that follows these figures grows with the data.
      store_start_mb: storeStart,
      store_end_mb: storeEnd,
    };
    if (!SMOKE) reportTargets(figures, TARGETS);
    // A missed target is a finding, not a failure: the exit status is for runs that could not measure.
    process.stdout.write(`${JSON.stringify({ ...figures, targets: TARGETS })}\n`);
  } finally {
    stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  stopAll();
  process.stderr.write(`bench sandbox: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
