import { readdirSync, readFileSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { extname, join, normalize, posix, relative, sep } from 'node:path';

// Which file of the built renderer a request names, for both hosts (the web host over loopback, the
// Electron host's app:// scheme). Only files inside the build folder, symlinks resolved; never a
// source map; a malformed % escape is the caller's error (400), not ours.

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export type StaticFile = { ok: true; path: string; type: string } | { ok: false; status: 400 | 404; message: string };

const NOT_FOUND: Exclude<StaticFile, { ok: true }> = { ok: false, status: 404, message: 'not found' };

/** The build folder as the file system names it (symlinks resolved), to hand to resolveStatic. Not built yet: nothing is served. */
export async function realRoot(dir: string): Promise<string> {
  try {
    return await realpath(normalize(dir));
  } catch {
    return normalize(dir);
  }
}

export const MALFORMED_ESCAPE = 'the address has a malformed % escape';

/** The URL path decoded, or null when a % escape in it is malformed (the caller answers 400). */
export function decodePath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

/** `root` must come from realRoot(); `pathname` is the URL's path, still percent-encoded. */
export async function resolveStatic(root: string, pathname: string): Promise<StaticFile> {
  let rel = decodePath(pathname);
  if (rel === null) return { ok: false, status: 400, message: MALFORMED_ESCAPE };
  if (rel === '/' || !extname(rel)) rel = '/index.html';
  // Source maps would hand out the source; they are not built, and never served.
  if (extname(rel).toLowerCase() === '.map') return NOT_FOUND;
  const file = normalize(join(root, rel));
  if (!file.startsWith(root + sep)) return NOT_FOUND;
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    return NOT_FOUND;
  }
  if (!real.startsWith(root + sep)) return NOT_FOUND;
  return { ok: true, path: real, type: CONTENT_TYPES[extname(real)] ?? 'application/octet-stream' };
}

export interface BuiltFile {
  data: Buffer;
  type: string;
}

/**
 * Every file the web host may serve, read once at its start: `root` from realRoot(), the same rules as
 * resolveStatic (inside the build folder, symlinks resolved, no source map). A start's window asks for
 * some twenty files while the core reads its caches in the same process; answered from memory, none
 * waits on two file-system calls behind that work (docs/performance.md §Opening the desk: they arrived 300 to 600 ms late).
 */
export function readBuild(root: string): Map<string, BuiltFile> {
  const files = new Map<string, BuiltFile>();
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { recursive: true, withFileTypes: true });
  } catch {
    return files;
  }
  for (const e of entries) {
    if (!e.isFile() && !e.isSymbolicLink()) continue;
    const path = join(e.parentPath, e.name);
    if (extname(path).toLowerCase() === '.map') continue;
    let real: string;
    try {
      real = realpathSync(path);
      if (!real.startsWith(root + sep) || !statSync(real).isFile()) continue;
    } catch {
      continue;
    }
    const url = `/${relative(root, path).split(sep).join('/')}`;
    files.set(url, { data: readFileSync(real), type: CONTENT_TYPES[extname(real)] ?? 'application/octet-stream' });
  }
  return files;
}

/** The URL path's file in `files` (readBuild), or why none: the address's rules are resolveStatic's. */
export function builtFile(
  files: ReadonlyMap<string, BuiltFile>,
  pathname: string,
): { ok: true; file: BuiltFile } | Exclude<StaticFile, { ok: true }> {
  let rel = decodePath(pathname);
  if (rel === null) return { ok: false, status: 400, message: MALFORMED_ESCAPE };
  if (rel === '/' || !extname(rel)) rel = '/index.html';
  const file = files.get(posix.normalize(rel));
  return file ? { ok: true, file } : NOT_FOUND;
}
