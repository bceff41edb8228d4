import { performance } from 'node:perf_hooks';
import { plan } from '../electron/core/rebalance/planner.ts';
import { equalize } from '../electron/core/rebalance/targets.ts';
import { mulberry32 } from '../simulator/random.ts';

// `npm run bench -- rebalance` (issue 14), planner part: a USDT rebalance of 400 sub-accounts' spot
// accounts to equal shares, from seeded balances of 0 to 100,000 USDT with 8 decimals. planner_ms is the
// median of RUNS plans after one warm-up (the machine is shared); planner_cold_ms is the first plan of
// the process. The batch run against the Sandbox (makespan_s, bound_s, twice, http_429) is not built yet.

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 400);
const RUNS = Number(process.env.BENCH_RUNS ?? 21);

function balances(): { account: { owner: string; kind: 'spot' }; balance: string }[] {
  const rnd = mulberry32(14);
  return Array.from({ length: ACCOUNTS }, (_, i) => {
    const units = BigInt(Math.floor(rnd() * 1e5)) * 100_000_000n + BigInt(Math.floor(rnd() * 1e8));
    const s = units.toString().padStart(9, '0');
    return { account: { owner: `bench_sub_${String(i + 1).padStart(4, '0')}`, kind: 'spot' }, balance: `${s.slice(0, -8)}.${s.slice(-8)}` };
  });
}

const scope = equalize(balances());
const t0 = performance.now();
const first = plan('USDT', scope);
const cold = performance.now() - t0;
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  plan('USDT', scope);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
const ms = (x: number) => Math.round(x * 1000) / 1000;
process.stderr.write(`rebalance: ${first.transfers.length} transfers moving ${first.moved} USDT of ${first.total}; remainder ${first.remainder}; expected ${first.expectedSeconds} s under §8.2\n`);
console.log(JSON.stringify({
  accounts: ACCOUNTS,
  transfers: first.transfers.length,
  planner_ms: ms(times[Math.floor(times.length / 2)]!),
  planner_cold_ms: ms(cold),
  bound_s: first.expectedSeconds,
}));
