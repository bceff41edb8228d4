import { listOf, SubAccountTransfer, Withdrawal } from '../../../shared/api/records.ts';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { Journal, readJournal } from '../journal/journal.ts';
import { WriteExecutor } from './executor.ts';
import { testJournalKey } from '../journal/testkit/key.ts';
import { journalKeyOf } from './testkit/batchRunner.key.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// The same proofs against the real Sandbox over loopback, with its admin faults on: errors before the
// commit, connections dropped after it, answers held past the client's timeout after it, and 429s. The
// Sandbox accepts a reused withdraw_order_id (its default), so only the desk's own guard prevents doubles.

const here = dirname(fileURLToPath(import.meta.url));
const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const COUNT = 200;
const SETTLE_MS = 1500;

/**
 * About 20% of the writes hit a fault: three rules fire on their own at 7% each (1 - 0.93^3 = 19.6%),
 * and two 429s per path (only two: with limits off the Sandbox's reset time is "now", so the client's
 * scheduler pauses the whole bucket for its window, 3 to 10 s, after each). Lookups see 503s at 10%,
 * and the exchange's clock runs 5 minutes ahead.
 */
async function faultsOn(seed: number): Promise<void> {
  await adminCall(sb.creds, 'DELETE', '/faults');
  for (const path of ['/withdrawals', '/wallet/sub_account_transfers']) {
    const common = { path, method: 'POST', rate: 0.07 };
    await adminCall(sb.creds, 'POST', '/faults', { ...common, seed: seed + 1, kind: 'error', status: 502, label: 'SERVER_ERROR' });
    await adminCall(sb.creds, 'POST', '/faults', { ...common, seed: seed + 2, kind: 'drop' });
    await adminCall(sb.creds, 'POST', '/faults', { ...common, seed: seed + 3, kind: 'timeout_after_commit', hang_ms: 1500 });
    await adminCall(sb.creds, 'POST', '/faults', {
      path,
      method: 'POST',
      every: 37,
      times: 2,
      kind: 'error',
      status: 429,
      label: 'TOO_MANY_REQUESTS',
    });
  }
  await adminCall(sb.creds, 'POST', '/faults', {
    path: '/wallet/*',
    method: 'GET',
    rate: 0.1,
    seed: seed + 5,
    kind: 'error',
    status: 503,
    label: 'TOO_BUSY',
  });
  // The exchange's clock 5 minutes ahead of the desk's: the client learns the offset (REQUEST_EXPIRED once).
  await adminCall(sb.creds, 'POST', '/faults', { path: '*', kind: 'skew', skew_sec: 300 });
}

function client(): ApiClient {
  return new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true, timeoutMs: 1000, maxReadAttempts: 3 });
}

/** What the exchange holds, asked with faults off: records per withdraw_order_id and per client_order_id. */
async function exchangeCounts(
  withdrawIds: string[],
  transferIds: string[],
): Promise<{ withdrawals: number[]; transfers: Map<string, number> }> {
  await adminCall(sb.creds, 'DELETE', '/faults');
  const c = client();
  const withdrawals: number[] = [];
  for (const id of withdrawIds) {
    const rows = await c.request({ method: 'GET', path: '/wallet/withdrawals', query: [['withdraw_order_id', id]] }, listOf(Withdrawal));
    withdrawals.push(rows.filter((r) => r.withdraw_order_id === id).length);
  }
  const wanted = new Set(transferIds);
  const transfers = new Map<string, number>();
  const nowSec = Math.floor(Date.now() / 1000);
  const rows = await c.request(
    {
      // An explicit window: records made while the skew fault was on carry the exchange's time, 5 minutes ahead.
      method: 'GET',
      path: '/wallet/sub_account_transfers',
      query: [
        ['sub_uid', sb.creds.sub_accounts[0]!.uid],
        ['from', String(nowSec - 86_400)],
        ['to', String(nowSec + 3600)],
        ['limit', '1000'],
      ],
    },
    listOf(SubAccountTransfer),
  );
  for (const r of rows)
    if (r.client_order_id && wanted.has(r.client_order_id)) transfers.set(r.client_order_id, (transfers.get(r.client_order_id) ?? 0) + 1);
  return { withdrawals, transfers };
}

const sb = useSandbox('writes-sandbox', { limits: false });
describe('exactly-once writes against the Sandbox with faults on', () => {
  it('200 withdrawals and 200 main/sub transfers under a 20% fault rate land exactly once each', async () => {
    await faultsOn(1000);
    const journal = Journal.open(join(sb.dir, 'journal-batch.jsonl'), { key: testJournalKey });
    const executor = new WriteExecutor({ journal, client: client(), settleMs: SETTLE_MS, lookupIntervalMs: 150 });
    try {
      const sub = sb.creds.sub_accounts[0]!.uid;
      const results = await Promise.all([
        ...Array.from({ length: COUNT }, (_, i) =>
          executor.submit(
            { kind: 'withdrawal', input: { currency: 'USDT', amount: `${(i % 9) + 10}.5`, address: TRX, chain: 'TRX' } },
            'test',
          ),
        ),
        ...Array.from({ length: COUNT }, (_, i) =>
          executor.submit(
            { kind: 'main_sub_transfer', input: { sub_account: sub, currency: 'USDT', amount: `${(i % 9) + 1}`, direction: 'to' } },
            'test',
          ),
        ),
      ]);
      const faults = (await adminCall(sb.creds, 'GET', '/faults')) as Array<{ kind: string; path: string; fired: number }>;
      for (const f of faults) expect(f.fired, `${f.kind} ${f.path}`).toBeGreaterThan(0);
      expect(results.filter((v) => v.state !== 'accepted' && v.state !== 'done').map((v) => [v.state, v.reason])).toEqual([]);

      const w = results.filter((v) => v.kind === 'withdrawal').map((v) => v.client_id!);
      const t = results.filter((v) => v.kind === 'main_sub_transfer').map((v) => v.client_id!);
      const counts = await exchangeCounts(w, t);
      expect(counts.withdrawals).toEqual(Array(COUNT).fill(1));
      expect(counts.transfers.size).toBe(COUNT);
      expect([...counts.transfers.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await executor.stop();
      journal.close();
    }
  }, 120_000);

  it('a core killed with SIGKILL mid-batch and restarted over its journal ends with exactly 200 of each', async () => {
    await faultsOn(2000);
    const journalPath = join(sb.dir, 'journal-crash.jsonl');
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const runner = join(here, 'testkit', 'batchRunner.ts');
    const run = (mode: string, onLine: (l: string, kill: () => void) => void) =>
      new Promise<{ code: number | null; signal: string | null }>((done) => {
        const child = spawn(
          process.execPath,
          ['--import', tsx, runner, mode, journalPath, sb.creds.base_url, String(COUNT), String(SETTLE_MS), sb.credentialsPath],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        const err: string[] = [];
        createInterface({ input: child.stderr! }).on('line', (l) => err.push(l));
        createInterface({ input: child.stdout! }).on('line', (l) => onLine(l, () => child.kill('SIGKILL')));
        child.once('exit', (code, signal) => {
          if (code !== 0 && signal === null) process.stderr.write(`${err.join('\n')}\n`);
          done({ code, signal });
        });
      });

    // Kill once the batch is going out: after the first records have landed at the exchange.
    let poll: NodeJS.Timeout | undefined;
    const first = await run('start', (line, kill) => {
      if (line !== 'PREPARED') return;
      poll = setInterval(() => {
        const landed = readJournal(journalPath, journalKeyOf(journalPath)).records.filter((r) => r.type === 'result').length;
        if (landed >= 60) {
          clearInterval(poll);
          kill();
        }
      }, 50);
    });
    clearInterval(poll);
    expect(first.signal).toBe('SIGKILL');
    const atKill = readJournal(journalPath, journalKeyOf(journalPath)).records;
    expect(atKill.filter((r) => r.type === 'result').length).toBeLessThan(2 * COUNT);

    const second = await run('resume', () => undefined);
    expect(second.code).toBe(0);

    const intents = readJournal(journalPath, journalKeyOf(journalPath)).records.filter((r) => r.type === 'intent');
    expect(intents).toHaveLength(2 * COUNT);
    const counts = await exchangeCounts(
      intents.filter((r) => r.kind === 'withdrawal').map((r) => r.client_id!),
      intents.filter((r) => r.kind === 'main_sub_transfer').map((r) => r.client_id!),
    );
    expect(counts.withdrawals).toEqual(Array(COUNT).fill(1));
    expect(counts.transfers.size).toBe(COUNT);
    expect([...counts.transfers.values()].every((n) => n === 1)).toBe(true);
  }, 180_000);
});
