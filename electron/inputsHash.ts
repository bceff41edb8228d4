import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// What a build reads, as one hash: it decides whether a build is done again (`npm start`, and the
// Sandbox bundle every launcher runs).

const TEST = /\.(test|e2e)\.tsx?$/;

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (!TEST.test(e.name)) out.push(p);
  }
}

/** SHA-256 over every input's path and content, in a fixed order: the sources under `dirs` (tests aside, they are not built) and `files`. */
export function inputsHash(root: string, dirs: readonly string[], files: readonly string[]): string {
  const all: string[] = [];
  for (const d of dirs) walk(join(root, d), all);
  for (const f of files) all.push(join(root, f));
  const h = createHash('sha256');
  for (const f of all.map((p) => relative(root, p)).sort()) {
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
