import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { readBalance } from './balances.ts';
import { plan } from './planner.ts';
import { equalize } from './targets.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// The desk (testkit/rebalanceRunner.ts, a child process) is SIGKILLed in the middle of a rebalance of 12
// fresh sub-accounts on a Sandbox whose sub-to-sub answers are slowed; a restart finishes the batch.
// Checked against the Sandbox: no transfer is held twice, and every transfer the report calls done moved.

const tsx = createRequire(import.meta.url).resolve('tsx');
const runner = join(import.meta.dirname, 'testkit', 'rebalanceRunner.ts');
const children: ChildProcess[] = [];

function run(
  mode: string,
  journal: string,
  planPath: string,
  onLine: (line: string, child: ChildProcess) => void = () => {},
): Promise<{ signal: string | null; result: string | null }> {
  const child = spawn(process.execPath, ['--import', tsx, runner, mode, journal, sb.credentialsPath, planPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let result: string | null = null;
  createInterface({ input: child.stdout }).on('line', (l) => {
    if (l.startsWith('RESULT ')) result = l.slice(7);
    onLine(l, child);
  });
  return new Promise((resolve) => child.once('exit', (_c, signal) => resolve({ signal, result })));
}

const sb = useSandbox('rebalance-crash');
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('a rebalance killed mid-batch', () => {
  it('SIGKILL after some transfers are done, then a restart: none is made twice, and the batch finishes', async () => {
    const amounts = ['120', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'];
    const uids: string[] = [];
    for (const [i, a] of amounts.entries()) {
      const { uid } = await adminCall<{ uid: string }>(sb.creds, 'POST', `/accounts/${sb.creds.main.uid}/sub_accounts`, {
        name: `crash_${i}`,
      });
      if (a !== '0') await adminCall(sb.creds, 'POST', '/deposits', { uid, currency: 'USDT', amount: a });
      uids.push(uid);
    }
    await adminCall(sb.creds, 'POST', '/faults', {
      kind: 'latency',
      latency_ms: 150,
      path: '/wallet/sub_account_transfers',
      method: 'POST',
      times: 1000,
    });
    const p = plan('USDT', equalize(uids.map((uid, i) => ({ account: { owner: uid, kind: 'spot' as const }, balance: amounts[i]! }))));
    expect(p.transfers).toHaveLength(11);
    const planPath = join(sb.dir, 'plan.json');
    writeFileSync(planPath, JSON.stringify(p));
    const journal = join(sb.dir, 'journal.jsonl');

    const first = await run('start', journal, planPath, (line, child) => {
      // Transfers finishing together may skip a count: the first report of 4 or more kills it.
      if (line.startsWith('PROGRESS ') && Number(line.slice(9)) >= 4 && child.signalCode === null) child.kill('SIGKILL');
    });
    expect(first.signal).toBe('SIGKILL');
    const second = await run('resume', journal, planPath);
    expect(second.signal).toBeNull();
    const { states } = JSON.parse(second.result!) as { states: string[] };

    const db = new Database(join(sb.dir, 'sandbox', 'sandbox.sqlite'), { readonly: true });
    const rows = db
      .prepare(
        `SELECT sub_account AS to_uid, COUNT(*) AS n FROM transfers WHERE kind = 'main_sub' AND direction = 'to' AND sub_account IN (${uids.map(() => '?').join(',')}) GROUP BY sub_account`,
      )
      .all(...uids) as { to_uid: string; n: number }[];
    const out = db
      .prepare(`SELECT COUNT(*) AS n FROM transfers WHERE kind = 'main_sub' AND direction = 'from' AND sub_account = ?`)
      .get(uids[0]) as {
      n: number;
    };
    db.close();
    expect(rows.filter((r) => r.n > 1)).toEqual([]);
    // Each transfer leaves the source once (sub to main), however often the desk was stopped.
    expect(out.n).toBeLessThanOrEqual(11);
    // What the report calls done landed once; at most the transfers out at the kill wait for an operator.
    const landed = new Set(rows.map((r) => r.to_uid));
    p.transfers.forEach((t, i) => {
      if (states[i] === 'done') expect(landed.has(t.to.owner)).toBe(true);
    });
    expect(states.filter((s) => s === 'done').length).toBeGreaterThanOrEqual(11 - 4);
    expect(states.every((s) => s === 'done' || s === 'needs_attention')).toBe(true);
    const client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main });
    const balances = await Promise.all(uids.map((uid) => readBalance(client, { owner: uid, kind: 'spot' }, 'USDT')));
    uids.slice(1).forEach((uid, i) => expect(balances[i + 1]).toBe(landed.has(uid) ? '10' : '0'));
  }, 90_000);
});
