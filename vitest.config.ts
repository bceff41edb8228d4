import { defineConfig } from 'vitest/config';

// Every test must assert something: a test that runs to the end without one fails (a test whose only
// check sits behind an `if` that no longer holds would otherwise pass with nothing checked).
const expect = { requireAssertions: true };

// Vitest's default on a 2-core machine is one worker, and the suite then runs file after file, though most
// of its time is spent waiting on Sandbox processes and browsers. The unit and component files run three
// at a time; then the e2e files, two at a time; then the benchmarks' smoke runs, alone, so that their
// figures come from a quiet machine. (Projects of one group must share a count.)
const PARALLEL = { maxWorkers: 3, sequence: { groupOrder: 0 } };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          ...PARALLEL,
          include: [
            'shared/**/*.test.ts',
            'electron/**/*.test.ts',
            'simulator/**/*.test.ts',
            'renderer/**/*.test.ts',
            'e2e/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
          expect,
          // electron-store imports `electron`: run it through Vitest so that the tests' fake electron applies.
          server: { deps: { inline: ['electron-store'] } },
          testTimeout: 30_000,
        },
      },
      {
        // Component tests: each page with a fake desk, in jsdom.
        test: {
          name: 'renderer',
          ...PARALLEL,
          include: ['renderer/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['renderer/src/testkit/setup.ts'],
          expect,
          testTimeout: 15_000,
        },
      },
      {
        // Every benchmark at its smoke size, each in its own process (bench/smoke.test.ts): a bench that no
        // longer reaches its JSON line fails `npm test`.
        test: {
          name: 'bench',
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
          include: ['bench/**/*.test.ts'],
          environment: 'node',
          expect,
          testTimeout: 240_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          // A page follows the core through events and refetches: on a busy machine that takes longer than
          // the default second of expect.poll, and a user would wait for it too.
          expect: { ...expect, poll: { timeout: 20_000, interval: 100 } },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file has its own Sandbox, desk and browser on their own ports: two files at a time keep
          // both cores busy while one waits on its page.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
