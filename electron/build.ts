import { build } from 'esbuild';

// Electron loads plain JavaScript: the main process as an ES module, the preload as CommonJS
// (a sandboxed preload cannot be an ES module). Both bundle shared/ and the core; electron stays external.
await Promise.all([
  build({
    entryPoints: ['electron/main.ts'],
    outfile: 'dist/electron/main.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: ['electron', 'better-sqlite3'],
    sourcemap: false,
    logLevel: 'warning',
  }),
  // Each window's preload: the main window's, and the confirmation window's (confirmation channels only).
  ...['preload', 'confirm-preload'].map((name) =>
    build({
      entryPoints: [`electron/${name}.ts`],
      outfile: `dist/electron/${name}.cjs`,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node22',
      external: ['electron'],
      logLevel: 'warning',
    }),
  ),
]);
