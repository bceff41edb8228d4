import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, load, ROOT, rssMb, start, statusSummary, stopAll, type Creds, type Spec } from './load.ts';

// `npm run bench -- sandbox` (issue 3). The Sandbox runs as a child process with --no-limits; the load
// generator (autocannon) runs here.
//  1. signed GET /wallet/total_balance, 50 connections, against a bare fastify route (also a child)
//     answering the same body under the same load in the same run (a tiny-body route is measured too,
//     for reference, on stderr);
//  2. mixed load (signed reads of several endpoints, transfers and withdrawals), with the Sandbox's
//     resident memory read from /proc/<pid>/status after the warm-up and at the end.
// Timestamps must stay within 60 s of the server, so every connection is re-signed once a second from
// setupClient (the request buffers are rebuilt once a second, not per request).
//
// BENCH_SECONDS (default 15): length of each of the three throughput runs; BENCH_WARMUP_SECONDS (30) and
// BENCH_MIXED_SECONDS (300): the mixed load. The last line printed is one JSON object.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 30);
const MIXED = Number(process.env.BENCH_MIXED_SECONDS ?? 300);
const CONNECTIONS = 50;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
  try {
    const sandbox = await start([join(ROOT, 'simulator', 'main.ts'), '--port', '0', '--data', dataDir, '--no-limits'], /^Sandbox listening on (\S+)$/);
    const creds = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as Creds;
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
    const bare = await start([join(ROOT, 'bench', 'bare-server.ts')], /^bare listening on (\S+)$/, { BARE_BODY_FILE: bodyFile });

    // A short run of each first, so that neither is measured cold.
    await load(bare.url, { connections: CONNECTIONS, duration: 3, path: '/same' });
    await load(origin, { connections: CONNECTIONS, duration: 3, specs: tb, prefix });

    const tinyRun = await load(bare.url, { connections: CONNECTIONS, duration: SECONDS, path: '/tiny' });
    process.stderr.write(`bare fastify, tiny body (reference only): ${tinyRun.requests.average} req/s, p50 ${tinyRun.latency.p50} ms, p99 ${tinyRun.latency.p99} ms (${statusSummary(tinyRun)})\n`);
    const bareRun = await load(bare.url, { connections: CONNECTIONS, duration: SECONDS, path: '/same' });
    process.stderr.write(`bare fastify, same body: ${bareRun.requests.average} req/s, p50 ${bareRun.latency.p50} ms, p99 ${bareRun.latency.p99} ms (${statusSummary(bareRun)})\n`);
    const signedRun = await load(origin, { connections: CONNECTIONS, duration: SECONDS, specs: tb, prefix });
    process.stderr.write(`signed GET /wallet/total_balance: ${signedRun.requests.average} req/s, p50 ${signedRun.latency.p50} ms, p99 ${signedRun.latency.p99} ms (${statusSummary(signedRun)})\n`);
    if (signedRun.non2xx > 0 || signedRun.errors > 0) throw new Error(`the signed run had failures: ${statusSummary(signedRun)}`);

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
      { method: 'POST', path: '/wallet/transfers', body: body({ currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '1.5' }), key: main },
      { method: 'POST', path: '/wallet/transfers', body: body({ currency: 'USDT', from: 'futures', to: 'spot', settle: 'usdt', amount: '1.5' }), key: main },
      { method: 'POST', path: '/wallet/sub_account_transfers', body: body({ sub_account: sub.uid, currency: 'USDT', amount: '0.25', direction: 'to' }), key: main },
      { method: 'POST', path: '/wallet/sub_account_transfers', body: body({ sub_account: sub.uid, currency: 'USDT', amount: '0.25', direction: 'from' }), key: main },
      { method: 'POST', path: '/withdrawals', body: body({ currency: 'USDT', chain: 'TRX', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', amount: '10' }), key: main },
    ];
    const pid = sandbox.child.pid!;
    let rssStart = NaN;
    const sampler = setTimeout(() => { rssStart = rssMb(pid); }, WARMUP * 1000);
    const mixedRun = await load(origin, { connections: 20, duration: WARMUP + MIXED, specs: mixed, prefix });
    clearTimeout(sampler);
    const rssEnd = rssMb(pid);
    process.stderr.write(`mixed load ${WARMUP}+${MIXED} s: ${mixedRun.requests.average} req/s (${statusSummary(mixedRun)}); RSS ${rssStart} MB -> ${rssEnd} MB\n`);

    const figures = {
      signed_get_rps: Math.round(signedRun.requests.average),
      bare_rps: Math.round(bareRun.requests.average),
      p50_ms: signedRun.latency.p50,
      p99_ms: signedRun.latency.p99,
      rss_start_mb: rssStart,
      rss_end_mb: rssEnd,
    };
    const ok = figures.signed_get_rps >= figures.bare_rps / 2 && figures.p99_ms <= 10 && Math.abs(rssEnd - rssStart) <= rssStart * 0.1;
    process.stderr.write(`targets (signed >= bare/2, p99 <= 10 ms, RSS within 10%): ${ok ? 'met' : 'NOT met'}\n`);
    process.stdout.write(`${JSON.stringify(figures)}\n`);
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
