import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// What `npm run build` reads: the app's sources (tests aside: they are not built), the build's own
// configuration and the locked dependencies. Its hash decides whether `npm start` builds again.

const SOURCE_DIRS = ['renderer', 'shared', 'electron'];
const FILES = ['vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json', 'renderer/tsconfig.json'];
const TEST = /\.(test|e2e)\.tsx?$/;

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (!TEST.test(e.name)) out.push(p);
  }
}

/** SHA-256 over every input's path and content, in a fixed order. */
export function buildInputsHash(root: string): string {
  const files: string[] = [];
  for (const d of SOURCE_DIRS) walk(join(root, d), files);
  for (const f of FILES) files.push(join(root, f));
  const h = createHash('sha256');
  for (const f of files.map((p) => relative(root, p)).sort()) {
    h.update(f).update('\0');
    try {
      h.update(readFileSync(join(root, f)));
    } catch {
      h.update('(absent)');
    }
    h.update('\0');
  }
  return h.digest('hex');
}
