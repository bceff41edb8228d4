import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { distConfig } from '../electron/distConfig.ts';
import { electronSqliteBinding } from '../electron/electron-native.ts';

// `npm run dist [-- <electron-builder options>]` (after `npm run build`): installers from one command.
//   npm run dist -- --linux AppImage deb      npm run dist -- --mac dmg      npm run dist -- --win nsis
//   npm run dist -- --dir                      (an unpacked app, for a quick look)
// 1. better-sqlite3 is built for the installed Electron in build/electron-native/<version>/ (never in
//    node_modules); offline, put a better_sqlite3.node built for that Electron there beforehand.
// 2. electron-builder runs with electron-builder.yml plus the files derived from the build; offline, give
//    it an Electron distribution: `npm run dist -- --dir -c.electronDist=/path/to/electron-v<version>`.
// node_modules' own native module is checked before and after: packaging must not change what the tests load.

const root = join(import.meta.dirname, '..');
const req = createRequire(join(root, 'package.json'));
const electronVersion = (JSON.parse(readFileSync(req.resolve('electron/package.json'), 'utf8')) as { version: string }).version;
const nodeBinary = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const sum = () => createHash('sha256').update(readFileSync(nodeBinary)).digest('hex');

const before = sum();
process.stderr.write(`dist: better-sqlite3 for Electron ${electronVersion}\n`);
await electronSqliteBinding(root, electronVersion);
const config = join(root, 'dist', 'electron-builder.json');
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(config, JSON.stringify(distConfig(root, electronVersion), null, 2));
const builder = spawnSync(process.execPath, [req.resolve('electron-builder/cli.js'), '--config', config, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
if (sum() !== before) {
  process.stderr.write(`dist: ${nodeBinary} changed during packaging; run \`npm rebuild better-sqlite3\` before testing\n`);
  process.exit(1);
}
process.exit(builder.status ?? 1);
