import { build, type BuildOptions, type Metafile } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputsHash } from './inputsHash.ts';

// The Sandbox as one JavaScript file (docs/packaging.md): `npm start`, the tests and the benchmarks run it under
// Node, and a packaged app runs the same file in Electron's utility process. Its native module
// (better-sqlite3) stays outside, loaded from the package (or the copy built for Electron's ABI).

export const SANDBOX_BUNDLE = join('dist', 'sandbox', 'main.mjs');
const STAMP = join('dist', 'sandbox', '.inputs');

export function sandboxBuildOptions(root: string): BuildOptions & { metafile: true } {
  return {
    entryPoints: [join(root, 'simulator', 'main.ts')],
    outfile: join(root, SANDBOX_BUNDLE),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    // The CommonJS packages it bundles (fastify among them) call require for Node's own modules.
    banner: { js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);" },
    sourcemap: false,
    metafile: true,
    logLevel: 'warning',
  };
}

function hashOf(root: string): string {
  return inputsHash(root, ['simulator', 'shared'], ['package-lock.json', 'electron/sandboxBundle.ts']);
}

/** Builds the bundle (through a temporary file, so that a launcher never runs half a file) and notes what it was built from. */
export async function buildSandboxBundle(root: string): Promise<Metafile> {
  const hash = hashOf(root);
  const out = join(root, SANDBOX_BUNDLE);
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  mkdirSync(join(root, 'dist', 'sandbox'), { recursive: true });
  const result = await build({ ...sandboxBuildOptions(root), outfile: tmp });
  renameSync(tmp, out);
  writeFileSync(join(root, STAMP), hash);
  return result.metafile;
}

/**
 * The bundle's path, built again first when a source of the Sandbox changed since it was built: a test
 * run after an edit must not start yesterday's Sandbox.
 */
export async function ensureSandboxBundle(root: string): Promise<string> {
  const out = join(root, SANDBOX_BUNDLE);
  const stamp = join(root, STAMP);
  if (!existsSync(out) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== hashOf(root)) await buildSandboxBundle(root);
  return out;
}
