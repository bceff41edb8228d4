import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { lastJsonLine, writeLatest, type BenchOutcome } from './latestTable.ts';

// `npm run bench -- <name>` runs bench/<name>.ts; `npm run bench` runs every registered benchmark in
// turn. Each runs in its own process and prints its figures as one JSON object on its last line.
// `--smoke` runs them at the tiny size of bench/size.ts (BENCH_SMOKE=1 in each child's environment).
// The full run of every benchmark (no names, not smoke, not interrupted) then writes their figures to
// docs/benchmarks-latest.md (bench/latestTable.ts). Methods and targets: docs/benchmarks.md.

const BENCHMARKS: Record<string, string> = {
  sandbox: 'the Sandbox: signed GET against a bare fastify route, then mixed load and memory (docs/benchmarks.md §sandbox)',
  client: "the desk's client against ccxt on a bench-world Sandbox (docs/benchmarks.md §client)",
  matching: 'the spot matching engine, a naive reference replay, and signed order placement over HTTP (docs/benchmarks.md §matching)',
  ui: 'the history pages in Chromium through the web host, 100,000 cached withdrawals (docs/benchmarks.md §ui)',
  'ui-subaccounts':
    'the Sub-accounts page in Chromium over a bench-world Sandbox: load, render, requests (docs/benchmarks.md §ui-subaccounts)',
  start: '`npm start` to its URL, and the window to the first balance painted: new user, then from the cache (docs/benchmarks.md §start)',
  rebalance:
    'a USDT rebalance of 400 sub-accounts to equal shares: planner, then the batch on a bench-world Sandbox with limits on (docs/benchmarks.md §rebalance)',
  statements:
    "a year's USDT statement of the main account and 1,000 sub-accounts on a bench-world Sandbox with limits on (docs/benchmarks.md §statements)",
  team: 'three desks on one PostgreSQL team store: 200 requests, each approved at two other desks and sent once (docs/benchmarks.md §team)',
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

/** The table of the last full run: docs/benchmarks.md says how it is made and read. */
const LATEST = join(ROOT, 'docs', 'benchmarks-latest.md');

/** Set once Ctrl-C (or SIGTERM) reached a benchmark: a run cut short writes no table. */
let interrupted = false;

/**
 * Runs one benchmark. With `keep`, its stdout is passed through as it comes and also kept, so that its
 * last line can go into the table; otherwise the child writes to this process's stdout itself.
 */
function runOne(name: string, keep?: BenchOutcome[]): Promise<number> {
  const file = join(ROOT, 'bench', FILES[name] ?? `${name}.ts`);
  if (!existsSync(file)) {
    process.stderr.write(`bench: ${name} is registered but bench/${name}.ts does not exist yet\n`);
    keep?.push({ name, code: 1, figures: null });
    return Promise.resolve(1);
  }
  process.stderr.write(`bench: ${name}: ${BENCHMARKS[name]}\n`);
  if (SERVE_THE_BUILD.has(name)) {
    const built = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'scripts', 'buildIfChanged.ts')], {
      stdio: 'inherit',
      cwd: ROOT,
    });
    if (built.status !== 0) {
      keep?.push({ name, code: 1, figures: null });
      return Promise.resolve(1);
    }
  }
  const child = spawn(process.execPath, ['--import', TSX, file], { stdio: ['inherit', keep ? 'pipe' : 'inherit', 'inherit'], cwd: ROOT });
  let stdout = '';
  child.stdout?.on('data', (c: Buffer) => {
    process.stdout.write(c);
    stdout += c.toString();
  });
  const forward = (sig: NodeJS.Signals) => {
    interrupted = true;
    child.kill(sig);
  };
  process.once('SIGINT', forward);
  process.once('SIGTERM', forward);
  // The last line may still be in the pipe when the child exits; a process it left behind holding the pipe
  // open must not hold the run, so the wait for the pipe's end is bounded.
  const drained = new Promise<void>((done) => {
    if (!child.stdout) return done();
    child.stdout.once('end', done);
    child.once('exit', () => setTimeout(done, 2_000));
  });
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      void drained.then(() => {
        keep?.push({ name, code: code ?? 1, figures: lastJsonLine(stdout) });
        resolve(code ?? 1);
      });
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
  // Only the full run of every benchmark writes the table: a smoke run's figures mean nothing, and a run of
  // a few would leave the others' rows out.
  const full = !asked.length && process.env.BENCH_SMOKE !== '1';
  const outcomes: BenchOutcome[] = [];
  let failed = 0;
  for (const name of asked.length ? asked : Object.keys(BENCHMARKS)) if ((await runOne(name, full ? outcomes : undefined)) !== 0) failed++;
  if (full && !interrupted) {
    writeLatest(LATEST, outcomes, ROOT);
    process.stderr.write(`bench: figures written to ${relative(process.cwd(), LATEST)}\n`);
  }
  process.exit(failed ? 1 : 0);
}

void main();
