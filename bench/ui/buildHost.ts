import { build } from 'esbuild';
import { join } from 'node:path';

// The UI benchmarks' host (bench/ui/host.ts: the core and the web host, without a Sandbox of its own),
// built as `npm start` runs its launcher (dist/start/start.mjs): one ES module, native and electron external,
// beside the project so that its packages resolve.

const ROOT = join(import.meta.dirname, '..', '..');

/** Builds the host and answers the script's path. */
export async function buildHost(): Promise<string> {
  const out = join(ROOT, 'dist', 'bench', 'ui-host.mjs');
  await build({
    entryPoints: [join(ROOT, 'bench', 'ui', 'host.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'electron'],
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return out;
}
