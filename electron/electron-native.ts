import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// Builds a copy of better-sqlite3 for Electron's ABI beside the project (build/electron-native/<version>),
// leaving node_modules' copy for Node (the web host and the tests). Run by start.ts before it starts the
// Electron binary; the path it answers goes to the core through TREASURY_DESK_SQLITE_BINDING.
// This machine has no Electron binary: the path exists and is typed, but it has not run here.

/** Where better-sqlite3 is built for one Electron version: beside the project, never in node_modules. */
export function nativeBuildDir(root: string, electronVersion: string): string {
  return join(root, 'build', 'electron-native', electronVersion);
}

export async function electronSqliteBinding(root: string, electronVersion: string): Promise<string> {
  const dir = nativeBuildDir(root, electronVersion);
  const binding = join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(binding)) return binding;
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'electron-native', private: true, dependencies: { 'better-sqlite3': '*' } }),
  );
  const req = createRequire(join(root, 'package.json'));
  const source = join(req.resolve('better-sqlite3/package.json'), '..');
  // Without its build folder: a rebuild that produced nothing must not leave Node's binary looking like Electron's.
  cpSync(source, join(dir, 'node_modules', 'better-sqlite3'), { recursive: true, filter: (p) => p !== join(source, 'build') });
  const { rebuild } = (await import('@electron/rebuild')) as {
    rebuild: (o: { buildPath: string; electronVersion: string; onlyModules: string[]; force: boolean }) => Promise<void>;
  };
  await rebuild({ buildPath: dir, electronVersion, onlyModules: ['better-sqlite3'], force: true });
  if (!existsSync(binding)) throw new Error(`@electron/rebuild finished but ${binding} is missing`);
  return binding;
}
