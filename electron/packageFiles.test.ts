import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageContents, type PackageContents } from './packageFiles.ts';

// An installed desk holds only the files packageContents lists (docs/packaging.md). They are copied to a folder
// of their own, and what the app would load is loaded from there: a file the list left out fails here,
// not on an operator's desktop. Runs on the build `npm test` makes before the tests.

const ROOT = join(import.meta.dirname, '..');
let contents: PackageContents;
let app: string;

beforeAll(() => {
  contents = packageContents(ROOT);
  app = mkdtempSync(join(tmpdir(), 'td-package-'));
  for (const f of contents.files) {
    mkdirSync(dirname(join(app, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(app, f));
  }
});
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** Node's own build of the native module, standing in for the Electron build an installer ships beside the archive. */
const NODE_BINDING = join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

describe('the package an installer is built from', () => {
  it('holds every bundle the app starts, and no TypeScript source, test, map or dev dependency', () => {
    for (const entry of [
      'dist/electron/main.mjs',
      'dist/electron/preload.cjs',
      'dist/electron/confirm-preload.cjs',
      'dist/sandbox/main.mjs',
    ])
      expect(contents.files).toContain(entry);
    expect(contents.files).toContain('dist/renderer/index.html');
    expect(contents.files).toContain('dist/renderer/confirm.html');
    expect(contents.files.filter((f) => /\.tsx?$|\.map$|\.test\./.test(f))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(contents.packages.filter((p) => p in manifest.devDependencies)).toEqual([]);
    // The Node-ABI binary would not load in Electron; the Electron one ships beside the archive.
    expect(contents.files.filter((f) => f.endsWith('.node'))).toEqual([]);
  });

  it("resolves every package a bundle imports inside the package's own files", () => {
    const externals = JSON.parse(readFileSync(join(ROOT, 'dist', 'externals.json'), 'utf8')) as Record<string, string[]>;
    for (const [entry, imports] of Object.entries(externals))
      for (const name of imports.filter((n) => n !== 'electron')) {
        const resolved = createRequire(join(app, entry)).resolve(name);
        expect(resolved.startsWith(app), `${entry} imports ${name}, found at ${resolved}`).toBe(true);
      }
  });

  it('runs the Sandbox from those files alone, with the native binary named as an installed app names it', async () => {
    const data = join(app, 'sandbox-data');
    const child = spawn(process.execPath, [join(app, 'dist', 'sandbox', 'main.mjs'), '--port', '0', '--data', data], {
      cwd: app,
      // No NODE_PATH and a folder outside the project: nothing resolves from the project's node_modules.
      env: { PATH: process.env.PATH, TREASURY_DESK_SQLITE_BINDING: NODE_BINDING },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (l) => {
          const m = /^Sandbox listening on (\S+)$/.exec(l);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`the Sandbox exited (${code}):\n${stderr}`)));
      });
      const res = await fetch(`${base}/spot/currency_pairs`);
      expect(res.status).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
    } finally {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
  }, 60_000);
});
