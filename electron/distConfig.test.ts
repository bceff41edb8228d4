import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { distConfig } from './distConfig.ts';
import { nativeBuildDir } from './electron-native.ts';

// `npm run dist` must never change what `npm test` loads: electron-builder rebuilds nothing in
// node_modules, and the copy of better-sqlite3 built for Electron lives in build/electron-native/.

const ROOT = join(import.meta.dirname, '..');

// @electron/rebuild needs Electron's headers from the internet: here it only writes the file it would build.
const rebuilt = { produce: true };
vi.mock('@electron/rebuild', () => ({
  rebuild: async (o: { buildPath: string }) => {
    if (!rebuilt.produce) return;
    const out = join(o.buildPath, 'node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'better_sqlite3.node'), 'built for Electron');
  },
}));

const scratch = mkdtempSync(join(tmpdir(), 'td-dist-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('packaging with npm run dist', () => {
  const config = distConfig(ROOT, '42.11.18');

  it('rebuilds nothing in node_modules and ships the Electron build of the native module beside the archive', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.buildDependenciesFromSource).toBe(false);
    const [native] = config.extraResources as Array<{ from: string; to: string }>;
    expect(native!.to).toBe('native/better_sqlite3.node');
    expect(relative(ROOT, native!.from).startsWith(join('build', 'electron-native', '42.11.18'))).toBe(true);
  });

  it('packages the files derived from the build, leaves out the dependencies no bundle loads, and keeps no source map', () => {
    const files = config.files as string[];
    expect(files).toContain('dist/electron/main.mjs');
    expect(files).toContain('dist/sandbox/main.mjs');
    expect(files).toContain('!node_modules/react{,/**/*}');
    expect(files).not.toContain('!node_modules/better-sqlite3{,/**/*}');
    expect(files).toContain('!**/*.map');
    expect(files.filter((f) => /\.tsx?$/.test(f))).toEqual([]);
  });

  it('builds the native module for Electron outside node_modules, leaving node_modules as it was', async () => {
    const { electronSqliteBinding } = await import('./electron-native.ts');
    // A project folder of its own whose node_modules is the real one: the build must land beside it.
    const project = join(scratch, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name":"p"}');
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    const nodeBinary = join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    const sum = () => createHash('sha256').update(readFileSync(nodeBinary)).digest('hex');
    const before = sum();
    const built = await electronSqliteBinding(project, '42.11.18');
    expect(built.startsWith(nativeBuildDir(project, '42.11.18'))).toBe(true);
    expect(readFileSync(built, 'utf8')).toBe('built for Electron');
    expect(sum()).toBe(before);
    expect(existsSync(join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
  });

  it("fails when the rebuild produced nothing, rather than ship Node's binary as Electron's", async () => {
    const { electronSqliteBinding } = await import('./electron-native.ts');
    const project = join(scratch, 'failing');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name":"p"}');
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    rebuilt.produce = false;
    await expect(electronSqliteBinding(project, '42.11.18')).rejects.toThrow(/is missing/);
  });
});
