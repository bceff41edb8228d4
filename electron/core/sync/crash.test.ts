import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { HistoryCache } from './historyCache.ts';
import { crashWorld } from './testkit/crashWorld.ts';

// A desk killed (SIGKILL: no handler runs) in the middle of its first sync leaves a cache that the next
// sync completes: every record once, none missing, and the windows already committed not read again.

const TSX = createRequire(import.meta.url).resolve('tsx');
const RUNNER = join(import.meta.dirname, 'testkit', 'syncRunner.ts');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-crash-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts the child sync and kills it once `windows` windows are committed; answers how many it saw. */
function killAfter(windows: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, RUNNER, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let committed = 0;
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        if (line === 'finished') reject(new Error('the child finished before it was killed'));
        if (line.startsWith('committed ') && ++committed === windows) child.kill('SIGKILL');
      }
    });
    child.once('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve(committed) : reject(new Error(`child exited without being killed (${signal})`)),
    );
  });
}

describe('history cache across a kill', () => {
  it('is completed by the next sync: every record exactly once, committed windows not read again', async () => {
    const committed = await killAfter(9);
    expect(committed).toBeGreaterThanOrEqual(9);

    const ex = crashWorld();
    const client = new ApiClient({
      baseUrl: 'https://exchange.test/api/v4',
      credentials: { key: 'k', secret: 's' },
      fetch: ex.fetch,
      limitsOff: true,
    });
    const cache = new HistoryCache({ client, dir, nowSec: () => ex.now, kinds: ['withdrawals', 'deposits'] });
    const halfway = cache.db.count('withdrawals') + cache.db.count('deposits');
    expect(halfway).toBeGreaterThan(0);
    expect(halfway).toBeLessThan(8_000);
    expect(cache.syncedTo).toBeNull();

    const report = await cache.sync();
    expect(cache.db.count('withdrawals')).toBe(ex.withdrawals.length);
    expect(cache.db.count('deposits')).toBe(ex.deposits.length);
    expect(new Set(cache.withdrawals().map((r) => r.id))).toEqual(new Set(ex.withdrawals.map((r) => r.id)));
    expect(new Set(cache.deposits().map((r) => r.id))).toEqual(new Set(ex.deposits.map((r) => r.id)));
    // 26 windows in all (13 per list); the committed ones are not read again (one overlapping window aside).
    const windowsRead = new Set(ex.seen.map((s) => `${s.path} ${s.query.get('from')}`)).size;
    expect(windowsRead).toBeLessThanOrEqual(26 - committed + 2);
    expect(cache.syncedTo).toBe(ex.now);
    expect(report.requests).toBe(ex.requests());
    cache.close();
  });
});
