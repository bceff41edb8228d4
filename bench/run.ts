import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// `npm run bench -- <name>` runs bench/<name>.ts; `npm run bench` runs every registered benchmark in
// turn. Each runs in its own process and prints its figures as one JSON object on its last line.
// `--smoke` runs them at the tiny size of bench/size.ts (BENCH_SMOKE=1 in each child's environment).

const BENCHMARKS: Record<string, string> = {
  sandbox: 'the Sandbox: signed GET against a bare fastify route, then mixed load and memory (issue 3)',
  client: "the desk's client against ccxt on a bench-world Sandbox (issue 4)",
  matching: 'the spot matching engine, a naive reference replay, and signed order placement over HTTP (issue 15)',
  ui: 'the history pages in Chromium through the web host, 100,000 cached withdrawals (issue 10)',
  'ui-subaccounts': 'the Sub-accounts page in Chromium over a bench-world Sandbox: load, render, requests (issue 11)',
  start: '`npm start` to its URL, and the window to the first balance painted: new user, then from the cache (issue 25)',
  rebalance:
    'a USDT rebalance of 400 sub-accounts to equal shares: planner, then the batch on a bench-world Sandbox with limits on (issue 14)',
  team: 'three desks on one PostgreSQL team store: 200 requests, each approved at two other desks and sent once (issue 27)',
};

/**
 * Benchmarks that serve the built renderer (dist/renderer): it is brought up to date first, as `npm start`
 * does, so that they measure the code checked out and not whatever an older build left there.
 */
const SERVE_THE_BUILD = new Set(['ui', 'ui-subaccounts']);

/** Benchmarks whose file is not bench/<name>.ts. */
const FILES: Record<string, string> = { 'ui-subaccounts': 'ui/subaccounts.ts' };

const ROOT = join(import.meta.dirname, '..');
const TSX = createRequire(join(ROOT, 'package.json')).resolve('tsx');

function runOne(name: string): Promise<number> {
  const file = join(ROOT, 'bench', FILES[name] ?? `${name}.ts`);
  if (!existsSync(file)) {
    process.stderr.write(`bench: ${name} is registered but bench/${name}.ts does not exist yet\n`);
    return Promise.resolve(1);
  }
  process.stderr.write(`bench: ${name}: ${BENCHMARKS[name]}\n`);
  if (SERVE_THE_BUILD.has(name)) {
    const built = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'scripts', 'buildIfChanged.ts')], {
      stdio: 'inherit',
      cwd: ROOT,
    });
    if (built.status !== 0) return Promise.resolve(1);
  }
  const child = spawn(process.execPath, ['--import', TSX, file], { stdio: 'inherit', cwd: ROOT });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.once('SIGINT', forward);
  process.once('SIGTERM', forward);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? 1);
    }),
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--smoke')) process.env.BENCH_SMOKE = '1';
  const asked = args.filter((a) => a !== '--smoke');
  const unknown = asked.filter((n) => !(n in BENCHMARKS));
  if (unknown.length) {
    process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}\n`);
    process.exit(2);
  }
  let failed = 0;
  for (const name of asked.length ? asked : Object.keys(BENCHMARKS)) if ((await runOne(name)) !== 0) failed++;
  process.exit(failed ? 1 : 0);
}

void main();
