import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../journal/journal.ts';
import { FaultyExchange, randomFaults } from './testkit/faultyExchange.ts';
import { journalKeyOf } from './testkit/batchRunner.key.ts';

// The executor runs in a child process (as the core would), is killed with SIGKILL in the middle of a
// batch, and is started again over the same journal. The exchange (in this process) outlives both runs.

const here = dirname(fileURLToPath(import.meta.url));
const runner = join(here, 'testkit', 'batchRunner.ts');
const tsx = createRequire(import.meta.url).resolve('tsx');
const COUNT = 200;

let dir: string;
let fake: FaultyExchange;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await fake?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function run(
  mode: 'start' | 'resume',
  journal: string,
  baseUrl: string,
  onLine: (line: string, child: ChildProcess) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, ['--import', tsx, runner, mode, journal, baseUrl, String(COUNT), '1500'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const err: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => err.push(l));
  createInterface({ input: child.stdout! }).on('line', (l) => onLine(l, child));
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      if (code !== 0 && signal === null) process.stderr.write(err.join('\n'));
      resolve({ code, signal });
    }),
  );
}

describe('a crash mid-batch', () => {
  it('SIGKILL while 200 withdrawals and 200 transfers are going out, then a restart: each lands exactly once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crash-'));
    const journal = join(dir, 'journal.jsonl');
    let victim: ChildProcess | null = null;
    let commits = 0;
    fake = new FaultyExchange({
      fault: randomFaults(0.2, 4242),
      lateCommitMs: 450,
      onCommit: () => {
        // Kill in the thick of it: after 120 writes landed, with others in flight and unconfirmed.
        if (++commits === 120) victim?.kill('SIGKILL');
      },
    });
    const baseUrl = await fake.start();

    let prepared = false;
    const first = await run('start', journal, baseUrl, (line, child) => {
      if (line === 'PREPARED') {
        prepared = true;
        victim = child;
      }
    });
    expect(prepared).toBe(true);
    expect(first.signal).toBe('SIGKILL');
    const atKill = readJournal(journal, journalKeyOf(journal)).records;
    const sentNoOutcome = new Set<string>();
    for (const r of atKill) {
      if (r.type === 'sent') sentNoOutcome.add(r.intent);
      if (r.type === 'result' || r.type === 'retry') sentNoOutcome.delete(r.intent);
    }
    // The kill left writes behind that were sent (or queued to be) with no recorded answer.
    expect(fake.withdrawals.length + fake.subTransfers.size).toBeLessThan(2 * COUNT);
    expect(sentNoOutcome.size).toBeGreaterThan(0);

    let done = '';
    const second = await run('resume', journal, baseUrl, (line) => {
      if (line.startsWith('DONE ')) done = line;
    });
    expect(second.code).toBe(0);
    const states = JSON.parse(done.slice(5)) as Record<string, number>;
    expect(Object.keys(states).sort()).toEqual(['accepted', 'done']);

    const { records } = readJournal(journal, journalKeyOf(journal));
    const intents = records.filter((r) => r.type === 'intent');
    expect(intents).toHaveLength(2 * COUNT);
    const withdrawalIds = intents.filter((r) => r.kind === 'withdrawal').map((r) => r.client_id);
    expect(fake.withdrawals).toHaveLength(COUNT);
    expect(new Set(fake.withdrawals.map((w) => w.withdraw_order_id))).toEqual(new Set(withdrawalIds));
    const transferIds = intents.filter((r) => r.kind === 'main_sub_transfer').map((r) => r.client_id);
    expect(new Set(fake.subTransfers.keys())).toEqual(new Set(transferIds));
  }, 240_000);
});
