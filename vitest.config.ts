import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'simulator/**/*.test.ts', 'renderer/**/*.test.ts', 'e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        // Component tests: each page with a fake desk, in jsdom.
        test: {
          name: 'renderer',
          include: ['renderer/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['renderer/src/testkit/setup.ts'],
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One browser and one Sandbox at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
