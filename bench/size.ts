// `npm run bench -- --smoke [names]` (and `npm test`, through bench/smoke.test.ts) runs every benchmark at a
// tiny size: the demo world instead of the bench world (which takes the better part of a minute to seed),
// a handful of rows, runs and seconds. Its figures mean nothing; it proves the bench still runs to its
// JSON line, so that a change that breaks a benchmark fails the tests instead of the next person's run.

export const SMOKE = process.env.BENCH_SMOKE === '1';

/** The full size, or the smoke size when BENCH_SMOKE=1. */
export function size<T>(full: T, smoke: T): T {
  return SMOKE ? smoke : full;
}

/** The Sandbox world a benchmark seeds. */
export const WORLD = size('bench', 'demo');
