import { build, type Metafile, type Plugin } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { buildInputsHash } from '../scripts/buildInputs.ts';
import { buildSandboxBundle } from './sandboxBundle.ts';

// Electron loads plain JavaScript: the main process as an ES module, the preload as CommonJS
// (a sandboxed preload cannot be an ES module). Both bundle shared/ and the core; electron stays external.
// The Sandbox is bundled too (sandboxBundle.ts). What each bundle still imports from outside itself is
// written to dist/externals.json: the package's file list is derived from it (packageFiles.ts).

const root = join(import.meta.dirname, '..');
// Taken before the bundles are built (vite's part ran just before): an input edited meanwhile leaves the
// stamp stale, so the next start builds again.
const inputs = buildInputsHash(root);

/**
 * pg's optional libpq binding: pg loads it only when asked for `pg.native`, which the desk never is, and
 * treats "module not found" as its absence. Bundled as exactly that, so the app imports no package it
 * does not ship.
 */
const noPgNative: Plugin = {
  name: 'no-pg-native',
  setup(b) {
    b.onResolve({ filter: /^pg-native$/ }, () => ({ path: 'pg-native', namespace: 'absent' }));
    b.onLoad({ filter: /.*/, namespace: 'absent' }, () => ({
      contents: `throw Object.assign(new Error("Cannot find module 'pg-native'"), { code: 'MODULE_NOT_FOUND' });`,
    }));
  },
};

const [main, , ...preloads] = await Promise.all([
  build({
    entryPoints: ['electron/main.ts'],
    outfile: 'dist/electron/main.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // pdfkit reads its standard fonts' metrics from files beside its code, which a bundle would leave behind.
    external: ['electron', 'better-sqlite3', 'pdfkit'],
    plugins: [noPgNative],
    sourcemap: false,
    metafile: true,
    logLevel: 'warning',
  }),
  // `npm start` runs the launcher built too: under tsx, each module was compiled as the desk started and
  // the web host's first answers (a new process's window) came 100-150 ms later (docs/performance.md §Opening the desk).
  build({
    entryPoints: ['electron/start.ts'],
    outfile: 'dist/start/start.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['electron', 'better-sqlite3', 'pdfkit'],
    plugins: [noPgNative],
    sourcemap: false,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
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
      metafile: true,
      logLevel: 'warning',
    }),
  ),
]);
const sandbox = await buildSandboxBundle(root);

/** The packages a bundle imports at run time (Node's own modules aside). */
function externals(meta: Metafile): string[] {
  const found = new Set<string>();
  for (const out of Object.values(meta.outputs)) for (const i of out.imports) if (i.external && !isBuiltin(i.path)) found.add(i.path);
  return [...found].sort();
}

writeFileSync(
  join(root, 'dist', 'externals.json'),
  `${JSON.stringify(
    {
      'dist/electron/main.mjs': externals(main.metafile),
      'dist/electron/preload.cjs': externals(preloads[0]!.metafile),
      'dist/electron/confirm-preload.cjs': externals(preloads[1]!.metafile),
      'dist/sandbox/main.mjs': externals(sandbox),
    },
    null,
    2,
  )}\n`,
);
// What this build was made from (vite's part ran just before, in the same `npm run build`): `npm start`
// and the benchmarks skip the build while it matches (scripts/buildIfChanged.ts).
writeFileSync(join(root, 'dist', '.build-inputs'), inputs);
