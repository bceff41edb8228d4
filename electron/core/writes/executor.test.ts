import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { Journal } from '../journal/journal.ts';
import { DeskVault } from '../vault/vault.ts';
import { WriteExecutor, type WriteEvent } from './executor.ts';
import type { WriteInput } from './inputs.ts';
import { FaultyExchange, randomFaults, type Fault, type FakeOptions } from './testkit/faultyExchange.ts';
import { testJournalKey } from '../journal/testkit/key.ts';

// The executor against an in-process exchange over HTTP, through the real client. Times are short
// (a 1.5 s settling time against 450 ms late commits, a 300 ms client timeout) so that hundreds of ambiguous writes resolve in seconds.

const SETTLE_MS = 1500;
const INTERVAL_MS = 100;
const TIMEOUT_MS = 300;
const LATE_COMMIT_MS = 450;

let dir: string;
let fake: FaultyExchange;
let journal: Journal;
let executor: WriteExecutor;
let baseUrl: string;

async function setUp(opts: FakeOptions, settleMs = SETTLE_MS): Promise<void> {
  fake = new FaultyExchange({ lateCommitMs: LATE_COMMIT_MS, ...opts });
  baseUrl = await fake.start();
  journal = Journal.open(join(dir, 'journal.jsonl'), { key: testJournalKey });
  executor = makeExecutor(baseUrl, settleMs);
}

function makeExecutor(baseUrl: string, settleMs = SETTLE_MS): WriteExecutor {
  const client = new ApiClient({
    baseUrl,
    credentials: { key: 'test-key', secret: 'test-secret' },
    limitsOff: true,
    timeoutMs: TIMEOUT_MS,
    maxReadAttempts: 2,
  });
  return new WriteExecutor({ journal, client, settleMs, requestTimeoutMs: TIMEOUT_MS, lookupIntervalMs: INTERVAL_MS });
}

/** Faults for the first matching requests, in order; then none. */
function scripted(...plan: Array<[method: string, path: string, fault: Fault]>): (m: string, p: string) => Fault {
  return (m, p) => {
    const i = plan.findIndex(([pm, pp]) => pm === m && pp === p);
    if (i < 0) return 'none';
    return plan.splice(i, 1)[0]![2];
  };
}

const withdrawal = (i: number) => ({
  kind: 'withdrawal' as const,
  input: { currency: 'USDT', amount: `${i + 1}.5`, address: `Taddress${i}`, chain: 'TRX' },
});
const mainSub = (i: number) => ({
  kind: 'main_sub_transfer' as const,
  input: { sub_account: String(100 + (i % 7)), currency: 'USDT', amount: `${i + 1}`, direction: 'to' as const },
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'writes-'));
});

afterEach(async () => {
  await executor?.stop();
  journal?.close();
  await fake?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function countBy<T>(xs: T[], key: (x: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
}

describe('exactly-once writes against a faulty exchange', () => {
  it('200 withdrawals and 200 main/sub transfers under a 20% fault rate land exactly once each', async () => {
    await setUp({ fault: randomFaults(0.2, 20260301) });
    const results = await Promise.all([
      ...Array.from({ length: 200 }, (_, i) => executor.submit(withdrawal(i), 'test')),
      ...Array.from({ length: 200 }, (_, i) => executor.submit(mainSub(i), 'test')),
    ]);

    // Every kind of fault was exercised, the commits-then-fails ones included.
    for (const f of [
      'drop_after_commit',
      'timeout_after_commit',
      'error_after_commit',
      'late_commit',
      'drop_before',
      'error_before',
      'rate_limited',
    ] as const) {
      expect(fake.faultsApplied.get(f) ?? 0, f).toBeGreaterThan(0);
    }
    const withdrawalIds = results.filter((v) => v.kind === 'withdrawal').map((v) => v.client_id!);
    expect(new Set(withdrawalIds).size).toBe(200);
    const held = countBy(fake.withdrawals, (w) => w.withdraw_order_id);
    expect(fake.withdrawals).toHaveLength(200);
    for (const id of withdrawalIds) expect(held.get(id), id).toBe(1);
    // The amounts that arrived are the amounts asked for.
    const byId = new Map(results.map((v) => [v.client_id, v]));
    for (const w of fake.withdrawals) expect(w.amount).toBe(byId.get(w.withdraw_order_id)!.body.amount);

    expect(fake.subTransfers.size).toBe(200);
    for (const v of results.filter((r) => r.kind === 'main_sub_transfer')) expect(fake.subTransfers.has(v.client_id!)).toBe(true);

    expect(results.map((v) => v.state).filter((s) => s !== 'accepted' && s !== 'done')).toEqual([]);
    // More POSTs arrived than records exist: resends happened, and none of them doubled a write.
    expect(fake.posts.get('/withdrawals') ?? 0).toBeGreaterThan(200);
    expect(journal.unfinished().filter((v) => v.state !== 'accepted')).toEqual([]);
  }, 120_000);

  it('never resends before the settling time: a write still in flight when the client gives up lands once', async () => {
    await setUp({ fault: scripted(['POST', '/withdrawals', 'late_commit']) });
    const events: WriteEvent[] = [];
    executor.on((e) => events.push(e));
    const v = await executor.submit(withdrawal(0), 'alice');
    expect(v.state).toBe('accepted');
    expect(fake.withdrawals).toHaveLength(1);
    expect(fake.posts.get('/withdrawals')).toBe(1);
    expect(events.map((e) => e.intent.state)).toEqual(
      expect.arrayContaining(['pending_approval', 'approved', 'in_flight', 'unconfirmed', 'accepted']),
    );
    expect(events.filter((e) => e.record === 'retry')).toEqual([]);
  });

  it('the same fault doubles the withdrawal when the settling time is shorter than the flight (the guard is what saves it)', async () => {
    // The original lands 2 s after it arrived, long after a resend with no settling time.
    await setUp({ fault: scripted(['POST', '/withdrawals', 'late_commit']), lateCommitMs: 2000 }, 0);
    const v = await executor.submit(withdrawal(0), 'alice');
    for (let i = 0; i < 40 && fake.withdrawals.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(fake.posts.get('/withdrawals')).toBe(2);
    expect(fake.withdrawals.filter((w) => w.withdraw_order_id === v.client_id)).toHaveLength(2);
    // ...and the desk notices the double on its next look.
    await executor.pollStatuses();
    expect(journal.intent(v.id)?.state).toBe('needs_attention');
    expect(journal.intent(v.id)?.reason).toMatch(/holds 2 withdrawals with id .* applied more than once/);
  });

  it('resends a withdrawal proven absent over the settling time, with the same id', async () => {
    await setUp({ fault: scripted(['POST', '/withdrawals', 'drop_before']) });
    const v = await executor.submit(withdrawal(3), 'alice');
    expect(v).toMatchObject({ state: 'accepted', attempts: 2, status: 'REQUEST' });
    expect(fake.posts.get('/withdrawals')).toBe(2);
    expect(fake.withdrawals.map((w) => w.withdraw_order_id)).toEqual([v.client_id]);
    const records = journal.intent(v.id)!;
    expect(records.exchange_id).toBe(fake.withdrawals[0]!.id);
  });

  it('treats a labelled 4xx as a clear refusal: no lookup, no resend', async () => {
    await setUp({ refuse: (_p, b) => (b.amount === '999' ? { label: 'BALANCE_NOT_ENOUGH', message: 'not enough' } : null) });
    const v = await executor.submit(
      { kind: 'withdrawal', input: { currency: 'USDT', amount: '999', address: 'T1', chain: 'TRX' } },
      'alice',
    );
    expect(v).toMatchObject({ state: 'refused', label: 'BALANCE_NOT_ENOUGH' });
    expect(v.reason).toMatch(/balance|enough/i);
    expect(fake.posts.get('/withdrawals')).toBe(1);
    expect(fake.withdrawals).toHaveLength(0);
  });

  it('finds a transfer whose answer was lost instead of sending it again', async () => {
    await setUp({ fault: scripted(['POST', '/wallet/sub_account_transfers', 'error_after_commit']) });
    const v = await executor.submit(mainSub(1), 'alice');
    expect(v).toMatchObject({ state: 'done', attempts: 1, status: 'SUCCESS' });
    expect(fake.posts.get('/wallet/sub_account_transfers')).toBe(1);
    expect(fake.subTransfers.size).toBe(1);
  });

  it('never resends an own-account or sub-to-sub transfer after an ambiguous failure; asks the operator', async () => {
    await setUp({
      fault: scripted(['POST', '/wallet/transfers', 'timeout_after_commit'], ['POST', '/wallet/sub_account_to_sub_account', 'drop_before']),
    });
    const own = await executor.submit(
      { kind: 'own_transfer', input: { currency: 'USDT', from: 'spot', to: 'futures', amount: '5', settle: 'usdt' } },
      'alice',
    );
    const s2s = await executor.submit(
      {
        kind: 'sub_to_sub_transfer',
        input: {
          currency: 'USDT',
          sub_account_from: '101',
          sub_account_from_type: 'spot',
          sub_account_to: '102',
          sub_account_to_type: 'spot',
          amount: '2',
        },
      },
      'alice',
    );
    expect(own.state).toBe('needs_attention');
    expect(own.reason).toMatch(/no id to look up.*will not send it again/);
    expect(s2s.state).toBe('needs_attention');
    await executor.resume();
    expect(fake.posts.get('/wallet/transfers')).toBe(1);
    expect(fake.posts.get('/wallet/sub_account_to_sub_account')).toBe(1);
    expect(fake.ownTransfers).toHaveLength(1);
    expect(fake.subToSub).toHaveLength(0);

    const settled = executor.settle(own.id, 'alice', 'done', 'futures balance shows +5');
    expect(settled.state).toBe('settled');
    expect(journal.unfinished().map((v) => v.id)).toEqual([s2s.id]);
  });

  it('never sends blind an own-account or sub-to-sub transfer approved in an earlier run: a restored folder looks the same', async () => {
    await setUp({});
    const ownInput: WriteInput = {
      kind: 'own_transfer',
      input: { currency: 'USDT', from: 'spot', to: 'futures', amount: '5', settle: 'usdt' },
    };
    const s2sInput: WriteInput = {
      kind: 'sub_to_sub_transfer',
      input: {
        currency: 'USDT',
        sub_account_from: '101',
        sub_account_from_type: 'spot',
        sub_account_to: '102',
        sub_account_to_type: 'spot',
        amount: '2',
      },
    };
    // Approved, then the desk stopped before anything was sent (or the folder was restored from a copy
    // taken at that moment: no "sent" either way). Without an id nothing can prove these were not sent.
    const own = executor.prepare(ownInput);
    const s2s = executor.prepare(s2sInput);
    for (const v of [own, s2s]) journal.append({ type: 'approval', intent: v.id, by: 'alice' });
    await executor.stop();
    journal.close();
    journal = Journal.open(join(dir, 'journal.jsonl'), { key: testJournalKey });
    executor = makeExecutor(baseUrl);

    const after = await executor.resume();
    expect(after.map((v) => [v.id, v.state])).toEqual([
      [own.id, 'needs_attention'],
      [s2s.id, 'needs_attention'],
    ]);
    for (const v of after) expect(v.reason).toMatch(/approved in an earlier run/);
    expect(fake.posts.get('/wallet/transfers') ?? 0).toBe(0);
    expect(fake.posts.get('/wallet/sub_account_to_sub_account') ?? 0).toBe(0);

    // The same transfer approved in this run is sent: the refusal above is about the earlier run, not the kind.
    const now = await executor.submit(ownInput, 'alice');
    expect(now.state).toBe('done');
    expect(fake.ownTransfers).toHaveLength(1);
  });

  it('reconciles a UID transfer against the exchange records, and never resends one', async () => {
    await setUp({ fault: scripted(['POST', '/withdrawals/push', 'drop_after_commit'], ['POST', '/withdrawals/push', 'error_before']) });
    const landed = await executor.submit(
      { kind: 'uid_transfer', input: { receive_uid: '7001', currency: 'USDT', amount: '12.5' } },
      'alice',
    );
    expect(landed).toMatchObject({ state: 'done', exchange_id: String(fake.pushes[0]!.id) });
    const lost = await executor.submit({ kind: 'uid_transfer', input: { receive_uid: '7001', currency: 'USDT', amount: '12.5' } }, 'alice');
    // Same receiver and amount: the record of the first is claimed, so it is not taken for the second.
    expect(lost.state).toBe('needs_attention');
    expect(lost.reason).toMatch(/most likely did not happen/);
    expect(fake.posts.get('/withdrawals/push')).toBe(2);
    expect(fake.pushes).toHaveLength(1);
  });

  it('sends again after a 429 (nothing was applied) without doubling', async () => {
    await setUp({ fault: scripted(['POST', '/withdrawals', 'rate_limited'], ['POST', '/wallet/sub_account_transfers', 'rate_limited']) });
    const [w, t] = await Promise.all([executor.submit(withdrawal(1), 'a'), executor.submit(mainSub(1), 'a')]);
    expect(w).toMatchObject({ state: 'accepted', attempts: 2 });
    expect(t).toMatchObject({ state: 'done', attempts: 2 });
    expect(fake.withdrawals).toHaveLength(1);
    expect(fake.subTransfers.size).toBe(1);
  });

  it('watches an accepted withdrawal until a final status', async () => {
    await setUp({});
    const v = await executor.submit(withdrawal(0), 'a');
    fake.setStatus(v.client_id!, 'FAIL');
    await executor.pollStatuses();
    expect(journal.intent(v.id)).toMatchObject({ state: 'accepted', status: 'FAIL' });
    fake.setStatus(v.client_id!, 'DONE');
    await executor.pollStatuses();
    expect(journal.intent(v.id)).toMatchObject({ state: 'done', status: 'DONE' });
    expect(journal.unfinished()).toEqual([]);
  });

  it('resumes what a previous run left in flight: finds it, or proves it absent before resending', async () => {
    await setUp({});
    // A previous run journaled and sent two withdrawals, then stopped before any answer was recorded;
    // only the first one reached the exchange.
    const a = executor.prepare(withdrawal(1));
    const b = executor.prepare(withdrawal(2));
    for (const v of [a, b]) {
      journal.append({ type: 'approval', intent: v.id, by: 'a' });
      journal.append({ type: 'sent', intent: v.id, attempt: 1 });
    }
    await fetch(`${baseUrl}/withdrawals`, {
      method: 'POST',
      headers: { KEY: 'k', SIGN: 's', Timestamp: '1', 'Content-Type': 'application/json' },
      body: JSON.stringify(a.body),
    });
    const after = await executor.resume();
    expect(after.map((v) => [v.id, v.state, v.attempts])).toEqual([
      [a.id, 'accepted', 1],
      [b.id, 'accepted', 2],
    ]);
    expect(fake.withdrawals.map((w) => w.withdraw_order_id).sort()).toEqual([a.client_id, b.client_id].sort());
  });

  it('keeps approvals apart from sending: an unapproved intent is never sent, even on resume', async () => {
    await setUp({});
    const v = executor.prepare(withdrawal(0), 'batch 7');
    await executor.resume();
    expect(fake.posts.size).toBe(0);
    expect(journal.unfinished('withdrawal').map((x) => x.state)).toEqual(['pending_approval']);
    executor.cancel(v.id, 'operator changed their mind');
    expect(journal.unfinished()).toEqual([]);
    expect(() => executor.approve(v.id, 'a')).toThrow(/cancelled/);
  });

  it('holds a write that waits for its rate window when a freeze is signed meanwhile, and sends it after', async () => {
    await setUp({});
    // §8.2's withdrawal window (one per 3 s) counted as the desk counts it: the second waits in the queue.
    const client = new ApiClient({ baseUrl, credentials: { key: 'k', secret: 's' }, account: 'p1', timeoutMs: TIMEOUT_MS });
    let frozen = false;
    const paced = new WriteExecutor({
      journal,
      client,
      settleMs: SETTLE_MS,
      lookupIntervalMs: INTERVAL_MS,
      blocked: () => (frozen ? 'the desk is frozen (by alice)' : null),
    });
    const first = await paced.submit(withdrawal(0), 'alice');
    expect(first.state).toBe('accepted');
    const second = paced.submit(withdrawal(1), 'alice');
    await new Promise((r) => setTimeout(r, 500));
    // It passed every check before it queued: only the check as it leaves the queue can stop it now.
    expect(
      journal
        .intents()
        .filter((v) => v.id !== first.id)
        .map((v) => v.state),
    ).toEqual(['in_flight']);
    frozen = true;
    const held = await second;
    expect(held).toMatchObject({ state: 'approved' });
    expect(held.reason).toMatch(/not sent: .*the desk is frozen \(by alice\)/);
    expect(fake.withdrawals).toHaveLength(1);

    frozen = false;
    await paced.resume();
    expect(journal.intent(held.id)).toMatchObject({ state: 'accepted' });
    expect(fake.withdrawals.map((w) => w.withdraw_order_id).sort()).toEqual([first.client_id, held.client_id].sort());
  });

  it('sends nothing while the vault is locked, and carries on after unlock', async () => {
    await setUp({});
    const vault = DeskVault.open({ path: join(dir, 'vault.json'), scrypt: { N: 2 ** 14, r: 8, p: 1 } });
    await vault.setPassphrase(undefined, 'a long enough passphrase');
    // As the core holds a stored profile: its key and secret sealed, opened at each signature.
    const sealed = vault.box().seal(JSON.stringify({ key: 'AKEY123456789', secret: 'SSECRET987654321' }));
    const open = () => JSON.parse(vault.box().open(sealed)) as { key: string; secret: string };
    const credentials = {
      get key() {
        return open().key;
      },
      get secret() {
        return open().secret;
      },
    };
    const client = new ApiClient({ baseUrl, credentials, account: 'p1', limitsOff: true, timeoutMs: TIMEOUT_MS });
    const guarded = new WriteExecutor({
      journal,
      client,
      settleMs: SETTLE_MS,
      lookupIntervalMs: INTERVAL_MS,
      blocked: () => (vault.isLocked() ? 'the desk is locked' : null),
    });
    // An executor that does not ask first still cannot send: signing needs the vault.
    const unguarded = new WriteExecutor({ journal, client, settleMs: SETTLE_MS, lookupIntervalMs: INTERVAL_MS });
    vault.lock();

    const a = await guarded.submit(withdrawal(1), 'alice');
    expect(a).toMatchObject({ state: 'approved', attempts: 0 });
    const b = unguarded.submit(withdrawal(2), 'alice');
    await new Promise((r) => setTimeout(r, 3 * INTERVAL_MS));
    expect(fake.posts.size).toBe(0);
    expect(
      journal
        .unfinished()
        .map((v) => v.state)
        .sort(),
    ).toEqual(['approved', 'approved']);
    expect(journal.intents().find((v) => v.id !== a.id)?.reason).toMatch(/not sent: The desk is locked/);

    await vault.unlock('a long enough passphrase');
    const [ra, rb] = await Promise.all([guarded.resume().then(() => journal.intent(a.id)!), b]);
    await unguarded.stop();
    expect(ra.state).toBe('accepted');
    expect(rb.state).toBe('accepted');
    expect(fake.withdrawals).toHaveLength(2);
    expect(fake.posts.get('/withdrawals')).toBe(2);
    const journalText = (await import('node:fs')).readFileSync(join(dir, 'journal.jsonl'), 'utf8');
    expect(journalText).not.toContain('SSECRET987654321');
    expect(journalText).not.toContain('AKEY123456789');
  });
});
