import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { Journal } from '../journal/journal.ts';
import { testJournalKey } from '../journal/testkit/key.ts';
import { WriteExecutor } from '../writes/executor.ts';
import { readBalance, readBalances } from './balances.ts';
import { BatchRun } from './batch.ts';
import { plan } from './planner.ts';
import { reportCsv } from './report.ts';
import { equalize } from './targets.ts';
import { preApproved } from './testkit/preApproved.ts';
import { z } from 'zod';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// A rebalance batch through the real journal and write executor against a Sandbox with its limits on.
// Each test makes its own fresh sub-accounts (admin) and funds them with deposits, so balances are exact.

let client: ApiClient;
let n = 0;

/** Fresh sub-accounts holding these USDT amounts on spot. */
async function subsWith(amounts: string[]): Promise<string[]> {
  const uids: string[] = [];
  for (const a of amounts) {
    const { uid } = await adminCall<{ uid: string }>(sb.creds, 'POST', `/accounts/${sb.creds.main.uid}/sub_accounts`, {
      name: `rebalance_${++n}`,
    });
    if (a !== '0') await adminCall(sb.creds, 'POST', '/deposits', { uid, currency: 'USDT', amount: a });
    uids.push(uid);
  }
  return uids;
}

const balance = (uid: string) => readBalance(client, { owner: uid, kind: 'spot' }, 'USDT');
const readAll = (accounts: Parameters<typeof readBalances>[1], currency: string) => readBalances(client, accounts, currency);

function desk(name: string): { journal: Journal; executor: WriteExecutor } {
  const journal = Journal.open(join(sb.dir, `${name}.jsonl`), { key: testJournalKey });
  return { journal, executor: new WriteExecutor({ journal, client, settleMs: 1000, lookupIntervalMs: 200 }) };
}

const sb = useSandbox('rebalance');
beforeAll(async () => {
  client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main });
}, 60_000);

describe('a rebalance batch against the Sandbox', () => {
  it('equalizes 6 sub-accounts, each transfer once, and reports every one done', async () => {
    const amounts = ['60', '0', '0', '30.5', '0', '0'];
    const uids = await subsWith(amounts);
    const p = plan('USDT', equalize(uids.map((uid, i) => ({ account: { owner: uid, kind: 'spot' as const }, balance: amounts[i]! }))));
    const { journal, executor } = desk('equalize');
    const approved = preApproved(p, 'eq1');
    const out = await new BatchRun({ journal, sender: executor, approved, currency: 'USDT', readBalances: readAll }).run();
    // Each row went out under its own id, once.
    expect(approved.rows.map((r) => journal.intent(r.ref)!.attempts)).toEqual(approved.rows.map(() => 1));
    expect(out.rows.map((r) => r.state)).toEqual(p.transfers.map(() => 'done'));
    // 90.5 / 6 rounded down to 1e-8; the 0.00000002 left over stays with a sender.
    expect(await Promise.all(uids.map(balance))).toEqual([
      '15.08333333',
      '15.08333333',
      '15.08333333',
      '15.08333335',
      '15.08333333',
      '15.08333333',
    ]);
    await executor.stop();
    journal.close();
  });

  it('a cancel stops between transfers: the rest is skipped, unsent', async () => {
    const amounts = ['40', '0', '0', '0'];
    const uids = await subsWith(amounts);
    const p = plan('USDT', equalize(uids.map((uid, i) => ({ account: { owner: uid, kind: 'spot' as const }, balance: amounts[i]! }))));
    const { journal, executor } = desk('cancel');
    const approved = preApproved(p, 'cancel1');
    const run = new BatchRun({
      journal,
      sender: executor,
      approved,
      currency: 'USDT',
      readBalances: readAll,
      concurrency: 1,
      onProgress: (rows) => {
        if (rows.some((r) => r.state === 'done')) run.cancel('operator pressed Cancel');
      },
    });
    const out = await run.run();
    // The skipped rows are in the journal as cancelled, so that no restart sends them.
    expect(approved.rows.slice(1).map((r) => journal.intent(r.ref)?.state)).toEqual(['cancelled', 'cancelled']);
    expect(out.cancelled).toBe(true);
    expect(out.rows.map((r) => r.state)).toEqual(['done', 'skipped', 'skipped']);
    expect(await Promise.all(uids.map(balance))).toEqual(['30', '10', '0', '0']);
    expect(reportCsv(out.rows).split('\r\n')[2]).toMatch(/^2,.*,10,USDT,skipped,rebalance cancelled: operator pressed Cancel$/);
    await executor.stop();
    journal.close();
  });

  it('a freeze holds the rest unsent and unskipped: a later run sends it', async () => {
    const amounts = ['30', '0', '0'];
    const uids = await subsWith(amounts);
    const p = plan('USDT', equalize(uids.map((uid, i) => ({ account: { owner: uid, kind: 'spot' as const }, balance: amounts[i]! }))));
    const { journal, executor } = desk('held');
    const approved = preApproved(p, 'held1');
    let frozen: string | null = null;
    const run = new BatchRun({
      journal,
      sender: executor,
      approved,
      currency: 'USDT',
      readBalances: readAll,
      concurrency: 1,
      held: () => frozen,
      onProgress: () => {
        frozen = 'the desk is frozen (by Alice)';
      },
    });
    const out = await run.run();
    expect(out.held).toBe('the desk is frozen (by Alice)');
    expect(out.rows.map((r) => r.state)).toEqual(['done', 'pending']);
    expect(journal.intent(approved.rows[1]!.ref)).toBeUndefined();
    frozen = null;
    const later = await new BatchRun({ journal, sender: executor, approved, currency: 'USDT', readBalances: readAll }).run();
    expect([later.held, later.rows.map((r) => r.state)]).toEqual([null, ['done', 'done']]);
    expect(await Promise.all(uids.map(balance))).toEqual(['10', '10', '10']);
    await executor.stop();
    journal.close();
  });

  it('after a restart it re-reads balances and pauses, naming the account, when a source no longer holds enough', async () => {
    const amounts = ['50', '0', '0'];
    const uids = await subsWith(amounts);
    const p = plan('USDT', [
      { account: { owner: uids[0]!, kind: 'spot' }, balance: '50', target: { type: 'amount', amount: '10' } },
      { account: { owner: uids[1]!, kind: 'spot' }, balance: '0', target: { type: 'amount', amount: '20' } },
      { account: { owner: uids[2]!, kind: 'spot' }, balance: '0', target: { type: 'amount', amount: '20' } },
    ]);
    const first = desk('restart');
    const approved = preApproved(p, 'r1');
    const row = approved.rows[0]!;
    await first.executor.dispatchApproved(row.ref, row.kind, row.body, [], 'operator', { note: row.note! }); // the first transfer went out, then the desk stopped
    await first.executor.stop();
    first.journal.close();
    // Meanwhile someone took 25 USDT out of the source (the main account pulls it back).
    await client.request(
      {
        method: 'POST',
        path: '/wallet/sub_account_transfers',
        body: { sub_account: uids[0], currency: 'USDT', amount: '25', direction: 'from' },
      },
      z.any(),
    );

    const again = desk('restart');
    const out = await new BatchRun({
      journal: again.journal,
      sender: again.executor,
      approved,
      currency: 'USDT',
      readBalances: readAll,
    }).run();
    expect(out.paused).toMatch(
      new RegExp(`^${uids[0]}:spot now holds 5 USDT, less than the 20 the rest of the batch takes from it \\(short by 15\\)`),
    );
    expect(again.journal.intent(approved.rows[1]!.ref)).toBeUndefined();
    expect(out.rows.map((r) => r.state)).toEqual(['done', 'pending']);
    expect(await Promise.all(uids.map(balance))).toEqual(['5', '20', '0']);
    await again.executor.stop();
    again.journal.close();
  });
});
