import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

// What an installed desk contains (docs/packaging.md), derived from the build's output rather than listed by
// hand: every built file the app loads (dist/, benchmarks and `npm start`'s launcher aside), its
// package.json, and the packages its bundles still import (dist/externals.json, written by
// electron/build.ts) with the packages those need at run time. No TypeScript source and no dev
// dependency. scripts/dist.ts hands this list to electron-builder; electron/packageFiles.test.ts runs
// the Sandbox from a copy holding only these files.

/** Packages a dependency lists that run only when npm installs it (better-sqlite3 fetches or builds its binary with this). */
const INSTALL_TIME_ONLY = new Set(['prebuild-install']);
/** Provided by the runtime, not the package. */
const RUNTIME = new Set(['electron']);
/**
 * Folders of a native package that are its sources and its Node-ABI build: an installed desk loads the
 * copy built for Electron's ABI, shipped beside the archive (extraResources: native/better_sqlite3.node).
 */
const NATIVE_BUILD_DIRS = ['src', 'deps', 'build', 'binding.gyp'];
/**
 * Documentation, tests and dotfiles of a package, maps, type declarations and the TypeScript sources some
 * packages ship beside their JavaScript (@noble/*, under pdfkit): nothing the app loads.
 */
const NOT_SHIPPED = /(^|\/)(README(\.md)?|CHANGELOG\.md|History\.md|test|tests|\.[^/]+)$|\.(map|tmp|[cm]?ts)$/i;

export interface PackageContents {
  /** Paths relative to the project, with forward slashes, sorted. */
  files: string[];
  /** The node_modules packages shipped (the closure of the bundles' imports). */
  packages: string[];
}

function walk(dir: string, out: string[], skip: (rel: string) => boolean, root: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const rel = relative(root, p).split(sep).join('/');
    if (skip(rel)) continue;
    if (e.isDirectory()) walk(p, out, skip, root);
    else out.push(rel);
  }
}

/** The packages the built bundles import, and what they depend on, transitively. */
export function shippedPackages(root: string): string[] {
  const externalsFile = join(root, 'dist', 'externals.json');
  if (!existsSync(externalsFile)) throw new Error('dist/externals.json is missing: run `npm run build` first');
  const externals = JSON.parse(readFileSync(externalsFile, 'utf8')) as Record<string, string[]>;
  const todo = Object.values(externals)
    .flat()
    .filter((p) => !RUNTIME.has(p));
  const found = new Set<string>();
  while (todo.length) {
    const name = todo.pop()!;
    if (found.has(name)) continue;
    const manifest = join(root, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) throw new Error(`a bundle imports ${name}, which is not installed`);
    found.add(name);
    const deps = (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
    for (const d of Object.keys(deps)) if (!INSTALL_TIME_ONLY.has(d)) todo.push(d);
  }
  return [...found].sort();
}

export function packageContents(root: string): PackageContents {
  const files = ['package.json'];
  walk(
    join(root, 'dist'),
    files,
    (rel) => rel === 'dist/bench' || rel === 'dist/start' || rel === 'dist/externals.json' || NOT_SHIPPED.test(rel),
    root,
  );
  const packages = shippedPackages(root);
  for (const name of packages) {
    const dir = join(root, 'node_modules', name);
    const native = existsSync(join(dir, 'binding.gyp'));
    walk(
      dir,
      files,
      (rel) => {
        const inPackage = rel.slice(`node_modules/${name}/`.length);
        if (NOT_SHIPPED.test(rel) || inPackage.startsWith('node_modules')) return true;
        return native && NATIVE_BUILD_DIRS.some((d) => inPackage === d || inPackage.startsWith(`${d}/`));
      },
      root,
    );
  }
  return { files: files.sort(), packages };
}
