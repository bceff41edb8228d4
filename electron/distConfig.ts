import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { nativeBuildDir } from './electron-native.ts';
import { packageContents } from './packageFiles.ts';

// The configuration `npm run dist` hands electron-builder: electron-builder.yml, with the package's
// files derived from the build (packageFiles.ts) and the native module built for Electron shipped beside
// the archive, where electron/main.ts looks for it (resources/native/better_sqlite3.node).

export function distConfig(root: string, electronVersion: string): Record<string, unknown> {
  const base = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
  const contents = packageContents(root);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // electron-builder adds every production dependency by itself: those the bundles do not load are left out.
  const unused = Object.keys(manifest.dependencies).filter((d) => !contents.packages.includes(d));
  const binary = join(nativeBuildDir(root, electronVersion), 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  return {
    ...base,
    files: [...contents.files, ...unused.map((d) => `!node_modules/${d}{,/**/*}`), ...((base.files as string[] | undefined) ?? [])],
    extraResources: [{ from: binary, to: 'native/better_sqlite3.node' }],
    electronVersion,
  };
}
