import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb, PAGE_CACHE_KIB, setMeta } from './db.ts';

// The Sandbox's store holds its keys: like the desk's data folder, only the operator's account may read it.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (p: string) => statSync(p).mode & 0o777;

describe.skipIf(process.platform === 'win32')('the Sandbox store on disk', () => {
  it('is a 0700 folder of 0600 files, -wal and -shm included', () => {
    const data = join(dir, 'data');
    const db = openDb(data);
    setMeta(db, 'k', 'v');
    expect(existsSync(join(data, 'sandbox.sqlite-wal'))).toBe(true);
    expect(mode(data)).toBe(0o700);
    for (const f of readdirSync(data).filter((n) => n.startsWith('sandbox.sqlite'))) expect(mode(join(data, f)), f).toBe(0o600);
    expect(
      readdirSync(data)
        .filter((n) => n.startsWith('sandbox.sqlite'))
        .sort(),
    ).toEqual(['sandbox.sqlite', 'sandbox.sqlite-shm', 'sandbox.sqlite-wal']);
    db.close();
  });

  it('tightens a store left readable by an older Sandbox', () => {
    const data = join(dir, 'old');
    const first = openDb(data);
    setMeta(first, 'k', 'v');
    first.close();
    chmodSync(data, 0o755);
    chmodSync(join(data, 'sandbox.sqlite'), 0o644);
    mkdirSync(join(data, 'x'));
    const again = openDb(data);
    expect(mode(data)).toBe(0o700);
    expect(mode(join(data, 'sandbox.sqlite'))).toBe(0o600);
    again.close();
  });
});

// docs/performance.md §Sandbox memory: the Sandbox's memory grew by the 16 MB page cache better-sqlite3 builds SQLite with, filled
// as its records grew. A read of a store far larger than the bound shows what the cache keeps.
describe.skipIf(process.platform !== 'linux')('the Sandbox store in memory', () => {
  it('keeps at most its page-cache bound of a 24 MB store it reads through', () => {
    const probe = join(import.meta.dirname, 'testkit', 'pageCacheProbe.ts');
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const r = spawnSync(process.execPath, ['--import', tsx, probe, join(dir, 'big'), '24'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const { bytes, grewMb } = JSON.parse(r.stdout) as { bytes: number; grewMb: number };
    expect(bytes).toBe(24_000_000);
    // The bound plus slack for the allocator; the old cache kept 16 MB of such a read.
    expect(grewMb).toBeLessThan(PAGE_CACHE_KIB / 1024 + 4);
  });
});
