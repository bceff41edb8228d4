import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listOf, SubAccountTransfer, Withdrawal } from '../../../shared/api/records.ts';
import { ApiClient } from '../client/client.ts';
import { Journal } from '../journal/journal.ts';
import { testJournalKey } from '../journal/testkit/key.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { WriteExecutor, type WriteEvent } from './executor.ts';
import type { WriteInput } from './inputs.ts';

// An exchange slower than the desk's deadline (docs/failure-modes.md §In doubt): the Sandbox's latency
// fault holds the first POST past the client's abort and commits it afterwards. The spec's ids are
// look-up keys, not idempotency keys (the Sandbox accepts a reused withdraw_order_id), so only the
// desk's doubt rule stands between this and a second copy. Each kind: one record at the exchange, and
// "outcome not known yet" (unconfirmed, with the time the doubt ends) while it was in doubt.

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const DEADLINE_MS = 800;
const SETTLE_MS = 2_500;
/** Past the deadline, inside deadline + settle: the first attempt lands while the desk is in doubt. */
const HOLD_MS = 2_200;

const sb = useSandbox('slow-exchange', { limits: false });
let dir: string;
let journal: Journal;
let executor: WriteExecutor | null = null;
let otherMain = '';

function newExecutor(settleMs: number): WriteExecutor {
  const client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true, maxReadAttempts: 2 });
  return new WriteExecutor({ journal, client, settleMs, requestTimeoutMs: DEADLINE_MS, lookupIntervalMs: 150 });
}

async function get<T extends z.ZodType>(path: string, query: Array<[string, string]>, schema: T): Promise<z.output<T>> {
  const client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true });
  return client.request({ method: 'GET', path, query }, schema);
}

const Pushes = listOf(
  z.looseObject({ id: z.union([z.string(), z.number()]), receive_uid: z.union([z.string(), z.number()]), amount: z.string() }),
);
const Orders = listOf(z.looseObject({ id: z.string(), text: z.string().optional() }));

interface Case {
  name: string;
  path: string;
  write: () => WriteInput;
  /** How many records the exchange holds of this write, read with faults off. */
  count: (clientId: string | null, w: WriteInput) => Promise<number>;
  /** Where it ends: a write with an id is found; one without is never resent and goes to an operator. */
  ends: 'accepted_or_done' | 'needs_attention';
}

const CASES: Case[] = [
  {
    name: 'withdrawal',
    path: '/withdrawals',
    write: () => ({ kind: 'withdrawal', input: { currency: 'USDT', amount: '12.34', address: TRX, chain: 'TRX' } }),
    count: async (id) =>
      (await get('/wallet/withdrawals', [['withdraw_order_id', id!]], listOf(Withdrawal))).filter((w) => w.withdraw_order_id === id).length,
    ends: 'accepted_or_done',
  },
  {
    name: 'main/sub transfer',
    path: '/wallet/sub_account_transfers',
    write: () => ({
      kind: 'main_sub_transfer',
      input: { sub_account: sb.creds.sub_accounts[0]!.uid, currency: 'USDT', amount: '3.21', direction: 'to' },
    }),
    count: async (id) =>
      (await get('/wallet/sub_account_transfers', [['sub_uid', sb.creds.sub_accounts[0]!.uid]], listOf(SubAccountTransfer))).filter(
        (t) => t.client_order_id === id,
      ).length,
    ends: 'accepted_or_done',
  },
  {
    name: 'spot order',
    path: '/spot/orders',
    write: () => ({
      kind: 'spot_order',
      input: {
        currency_pair: 'BTC_USDT',
        side: 'buy',
        type: 'limit',
        account: 'spot',
        amount: '0.02',
        price: '1000',
        time_in_force: 'gtc',
      },
    }),
    count: async (text) =>
      (await get('/spot/open_orders', [], listOf(z.looseObject({ orders: Orders }))))
        .flatMap((p) => p.orders)
        .filter((o) => o.text === text).length,
    ends: 'accepted_or_done',
  },
  {
    name: 'UID transfer (no id: found in the records, never resent)',
    path: '/withdrawals/push',
    write: () => ({ kind: 'uid_transfer', input: { receive_uid: otherMain, currency: 'USDT', amount: '4.56' } }),
    count: async () =>
      (await get('/wallet/push', [['transaction_type', 'withdraw']], Pushes)).filter(
        (p) => String(p.receive_uid) === otherMain && p.amount === '4.56',
      ).length,
    ends: 'accepted_or_done',
  },
];

beforeAll(async () => {
  otherMain = (await adminCall<{ main: { uid: string } }>(sb.creds, 'POST', '/accounts', {})).main.uid;
}, 60_000);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slow-exchange-'));
  journal = Journal.open(join(dir, 'journal.jsonl'), { key: testJournalKey });
});

afterEach(async () => {
  await executor?.stop();
  executor = null;
  journal.close();
  rmSync(dir, { recursive: true, force: true });
  await adminCall(sb.creds, 'DELETE', '/faults');
});

async function holdFirst(path: string): Promise<void> {
  await adminCall(sb.creds, 'POST', '/faults', { kind: 'latency', path, method: 'POST', every: 1, times: 1, latency_ms: HOLD_MS });
}

describe('an exchange slower than the desk deadline', () => {
  for (const c of CASES) {
    it(`leaves one ${c.name} at the exchange and says so while in doubt`, async () => {
      await holdFirst(c.path);
      executor = newExecutor(SETTLE_MS);
      const events: WriteEvent[] = [];
      executor.on((e) => events.push(e));
      const w = c.write();
      const v = await executor.submit(w, 'alice');
      // While in doubt the view says when the doubt ends: the attempt's deadline plus the settle window.
      const doubt = events.find((e) => e.record === 'unconfirmed')!.intent;
      expect(doubt.state).toBe('unconfirmed');
      expect(doubt.deadline).toBeGreaterThan(doubt.last_sent_at!);
      expect(doubt.doubt_until).toBe(doubt.deadline! + SETTLE_MS);
      await expect
        .poll(() => `${journal.intent(v.id)?.state}`, { timeout: 20_000, interval: 100, message: journal.intent(v.id)?.reason })
        .toMatch(c.ends === 'needs_attention' ? /^needs_attention$/ : /^(accepted|done)$/);
      // Let any resend that the doubt rule failed to stop land, then count.
      await new Promise((r) => setTimeout(r, HOLD_MS));
      await adminCall(sb.creds, 'DELETE', '/faults');
      expect(await c.count(v.client_id, w)).toBe(1);
      expect(events.filter((e) => e.record === 'retry')).toEqual([]);
    }, 40_000);
  }

  it('doubles the withdrawal when the settle window is shorter than the hold (what the rule prevents)', async () => {
    await holdFirst('/withdrawals');
    executor = newExecutor(0);
    const w = CASES[0]!.write();
    const v = await executor.submit(w, 'alice');
    await expect.poll(() => CASES[0]!.count(v.client_id, w), { timeout: 20_000, interval: 200 }).toBe(2);
  }, 40_000);
});

describe('a duplicate that happens anyway', () => {
  it('is named, journaled and cancelled by reconciliation', async () => {
    executor = newExecutor(SETTLE_MS);
    const events: WriteEvent[] = [];
    executor.on((e) => events.push(e));
    const w: WriteInput = { kind: 'withdrawal', input: { currency: 'USDT', amount: '17.77', address: TRX, chain: 'TRX' } };
    const v = await executor.submit(w, 'alice');
    expect(v, v.reason).toMatchObject({ state: 'accepted' });
    // Someone (a resend by a desk that broke the rules) leaves a second withdrawal under the same id.
    const copy = await adminCall<{ id: string }>(sb.creds, 'POST', `/withdrawals/${v.exchange_id}/duplicate`);
    expect(await CASES[0]!.count(v.client_id, w)).toBe(2);
    await executor.pollStatuses();
    const after = journal.intent(v.id)!;
    // §2.3: a list names a withdrawal "w" + the id its creation answered.
    const copyId = `w${copy.id.replace(/^w/, '')}`;
    expect(after.duplicates).toEqual([expect.objectContaining({ exchange_id: copyId, action: 'cancel_asked' })]);
    expect(events.some((e) => e.record === 'duplicate')).toBe(true);
    const records = await get('/wallet/withdrawals', [['withdraw_order_id', v.client_id!]], listOf(Withdrawal));
    expect(records.find((r) => r.id === copyId)?.status).toMatch(/^CANCEL/);
    const original = records.find((r) => r.id === `w${v.exchange_id!.replace(/^w/, '')}`);
    expect(original?.status).toMatch(/^[A-Z]+$/);
    expect(original?.status).not.toMatch(/^CANCEL/);
    // The original is still the write's own and still watched; a second poll cancels nothing more.
    expect(after.exchange_id).toBe(v.exchange_id);
    await executor.pollStatuses();
    expect(journal.intent(v.id)!.duplicates).toHaveLength(1);
  }, 40_000);
});
