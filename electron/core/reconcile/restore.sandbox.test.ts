import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SpotOrder } from '../../../shared/api/orders.ts';
import { Withdrawal } from '../../../shared/api/records.ts';
import type { ChannelResponse, IntentView } from '../../../shared/ipc.ts';
import { ensureOperator, sendGoverned, TEST_OPERATOR } from '../approvals/testkit/governed.ts';
import { ApiClient } from '../client/client.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { readSandboxCredentials } from '../profiles/sandbox.ts';
import { readBalance } from '../rebalance/balances.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { adminCall, verifiedSavedAddress } from '../testkit/sandboxAdmin.ts';
import type { BatchView } from '../../../shared/rebalance.ts';
import { ok } from '../testkit/sandboxCore.ts';

// A copy of the data folder taken while an approved payout batch goes out, restored once the batch has
// finished, then the desk started again: an ordinary backup restore. The Sandbox, like the live service,
// does not refuse a repeated withdraw_order_id, so only the desk stands between the restore and a second
// payment. The money is counted with the test's own client.

const VAULT = 'restore test vault passphrase';
const ADDRS = ['TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'TN3W4H6rK2ce4vX9YnFxx6HkVW5nS5jF8W'];
type Desk = Core & ConfirmCore;

// Each test has a Sandbox of its own, so that the money it counts is its own.
const sb = useSandbox('restore', { limits: false, perTest: true });
let exchange: ApiClient;
beforeEach(() => {
  exchange = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true });
});

const open = (home: string): Desk =>
  openDesk({
    home,
    sandboxCredentialsPath: sb.credentialsPath,
    coolingOffMs: 0,
    log: (l) => process.env.DEBUG_RESTORE && console.log(l),
  });

/** How many withdrawals the exchange holds under each id, read by the test's own client. */
async function copiesAtExchange(ids: readonly string[]): Promise<number[]> {
  const now = Math.floor(Date.now() / 1000);
  const rows = await exchange.request(
    {
      method: 'GET',
      path: '/wallet/withdrawals',
      query: [
        ['from', String(now - 3600)],
        ['to', String(now + 60)],
        ['limit', '1000'],
      ],
    },
    z.array(Withdrawal),
  );
  return ids.map((id) => rows.filter((r) => r.withdraw_order_id === id).length);
}

/** A stored profile on the Sandbox's main key behind a vault passphrase (the desk's non-Sandbox path). */
async function vaultProfile(core: Desk): Promise<void> {
  const creds = readSandboxCredentials(sb.credentialsPath);
  await ok(core.invoke('vaultSetPassphrase', { next: VAULT }));
  const saved = await ok<{ id: string }>(
    core.invoke('profileSave', {
      name: 'Payouts behind the vault',
      environment: 'futures',
      base_url: creds.base_url,
      svc: 'Svc',
      key: creds.main.key,
      secret: creds.main.secret,
      permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
      sub_keys: [],
    }),
  );
  await ok(core.invoke('profileSelect', { id: saved.id }));
}

/**
 * Runs a 6-row payout batch, copies the folder once 2 rows are out, lets it finish, restores the copy and
 * starts the desk again. Answers the rows' ids and the restarted desk.
 */
async function restoreDuringPayouts(name: string, withVault: boolean): Promise<{ ids: string[]; core: Desk; home: string }> {
  const home = join(sb.dir, name);
  let core = open(home);
  if (withVault) await vaultProfile(core);
  const operator = await ensureOperator(core, withVault ? VAULT : undefined);
  // A stored profile's new address-book entries wait 24 h: its destinations are verified at the exchange instead.
  if (withVault)
    for (const address of ADDRS)
      await verifiedSavedAddress(readSandboxCredentials(sb.credentialsPath), { currency: 'USDT', chain: 'TRX', address });
  // An address-book entry counts only once an operator has signed it in the confirmation window.
  for (const address of ADDRS) {
    const entry = await ok<{ ticket: string }>(core.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address }));
    await ok(core.invokeConfirm('confirmSign', { ticket: entry.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
  }
  const csv = `currency,chain,address,amount,reference\n${['11', '12', '13', '14', '15', '16']
    .map((a, i) => `USDT,TRX,${ADDRS[i % 3]},${a},INV-${i + 1}`)
    .join('\n')}\n`;
  const file = { file: 'payouts.csv', content_base64: Buffer.from(csv).toString('base64') };
  const queued = await ok<ChannelResponse<'payoutsQueue'>>(core.invoke('payoutsQueue', { ...file, rows: [1, 2, 3, 4, 5, 6] }));
  await ok(core.invokeConfirm('confirmSign', { ticket: queued.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
  const progress = () => ok<ChannelResponse<'payoutsProgress'>>(core.invoke('payoutsProgress', { ref: queued.ref }));
  await expect.poll(async () => (await progress()).counts.sent, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(2);
  const copy = join(sb.dir, `${name}-copy`);
  cpSync(home, copy, { recursive: true });
  await expect.poll(async () => (await progress()).counts.pending, { timeout: 60_000, interval: 200 }).toBe(0);
  const report = parse((await ok<ChannelResponse<'payoutsReport'>>(core.invoke('payoutsReport', { ref: queued.ref }))).csv, {
    columns: true,
  }) as Record<string, string>[];
  const ids = report.map((r) => r.withdraw_order_id!);
  expect(await copiesAtExchange(ids)).toEqual([1, 1, 1, 1, 1, 1]);
  await core.close();

  rmSync(home, { recursive: true });
  cpSync(copy, home, { recursive: true });
  core = open(home);
  if (withVault) await ok(core.invoke('vaultUnlock', { passphrase: VAULT }));
  return { ids, core, home };
}

async function journalStatus(core: Desk): Promise<ChannelResponse<'journalStatus'>> {
  return ok<ChannelResponse<'journalStatus'>>(core.invoke('journalStatus', {}));
}

describe('a data folder restored from a copy taken during an approved payout batch', () => {
  it.each([
    ['the Sandbox profile', false],
    ['a profile behind a vault passphrase', true],
  ])(
    'on %s: no row reaches the exchange twice, and the desk names what it found',
    async (_what, withVault) => {
      const { ids, core } = await restoreDuringPayouts(withVault ? 'vault' : 'plain', withVault);
      try {
        // Whichever comes first: the desk stops as damaged, or a row reaches the exchange a second time.
        const twice = async (): Promise<boolean> => (await copiesAtExchange(ids)).some((n) => n > 1);
        await expect
          .poll(async () => (await journalStatus(core)).state === 'damaged' || (await twice()), { timeout: 30_000, interval: 100 })
          .toBe(true);
        expect(await copiesAtExchange(ids)).toEqual([1, 1, 1, 1, 1, 1]);
        const status = await journalStatus(core);
        expect(status.state).toBe('damaged');
        // Either the journal's anchor (outside the folder) saw it shorter than it was, or the reconciliation
        // found the rows sent after the copy, by kind, id and amount.
        expect(status.damage!.reason).toMatch(new RegExp(`anchor|withdrawal ${ids[5]} of 16 USDT.*went back in time`));
        expect(status.damage!.missing).toBeGreaterThanOrEqual(1);
        expect(await copiesAtExchange(ids)).toEqual([1, 1, 1, 1, 1, 1]);

        // The operator archives the journal: the rows the batch still lists are looked up, found, never sent again.
        await ok(core.invoke('journalArchive', {}));
        await expect.poll(async () => (await journalStatus(core)).state, { timeout: 10_000 }).toBe('ok');
        // (With the governance journal's own anchor, governance may be damaged too: then nothing is handed over at all.)
        await expect
          .poll(
            async () => {
              const list = await ok<{ items: { id: string; state: string }[] }>(core.invoke('intentsList', {}));
              return ids.map((id) => list.items.find((v) => v.id === id)?.state ?? 'absent');
            },
            { timeout: 30_000, interval: 200 },
          )
          .not.toContain('approved');
        expect(await copiesAtExchange(ids)).toEqual([1, 1, 1, 1, 1, 1]);
      } finally {
        await core.close();
      }
    },
    150_000,
  );
});

describe('a data folder restored from a copy taken during an approved rebalance', () => {
  it('no leg runs twice: every account ends where the plan put it, once, and the desk names what it found', async () => {
    const creds = readSandboxCredentials(sb.credentialsPath);
    const uids: string[] = [];
    for (const [i, amount] of ['100', '0', '0', '0', '0'].entries()) {
      const { uid } = await adminCall<{ uid: string }>(creds, 'POST', `/accounts/${creds.main.uid}/sub_accounts`, { name: `restore_${i}` });
      if (amount !== '0') await adminCall(creds, 'POST', '/deposits', { uid, currency: 'USDT', amount });
      uids.push(uid);
    }
    // The first legs (sub to main, sent together) answer slowly, so that the copy falls before any second leg leaves.
    await adminCall(creds, 'POST', '/faults', {
      kind: 'latency',
      latency_ms: 3000,
      path: '/wallet/sub_account_transfers',
      method: 'POST',
      times: 4,
    });
    const balances = () => Promise.all(uids.map((owner) => readBalance(exchange, { owner, kind: 'spot' }, 'USDT')));
    const home = join(sb.dir, 'rebalance');
    let core = open(home);
    const operator = await ensureOperator(core);
    // The source keeps 68, so that a second run of the batch would find the money to move again.
    const plan = await ok<{ id: string }>(
      core.invoke('rebalancePlan', {
        currency: 'USDT',
        lines: uids.map((owner, i) => ({ account: { owner, kind: 'spot' }, target: { type: 'amount', amount: i === 0 ? '68' : '8' } })),
      }),
    );
    const draft = await ok<{ ticket: string; ref: string }>(core.invoke('rebalanceDraft', { plan: plan.id }));
    await ok(core.invokeConfirm('confirmSign', { ticket: draft.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    const batch = async (): Promise<BatchView> =>
      (await ok<BatchView[]>(core.invoke('rebalanceBatches', {}))).find((b) => b.ref === draft.ref)!;
    await expect.poll(async () => (await batch()).state, { timeout: 30_000, interval: 20 }).toBe('running');
    const copy = join(sb.dir, 'rebalance-copy');
    cpSync(home, copy, { recursive: true });
    await expect.poll(async () => (await batch()).state, { timeout: 60_000, interval: 200 }).toBe('finished');
    expect(await balances()).toEqual(['68', '8', '8', '8', '8']);
    await core.close();

    rmSync(home, { recursive: true });
    cpSync(copy, home, { recursive: true });
    core = open(home);
    try {
      const moved = async (): Promise<boolean> => (await balances()).join() !== '68,8,8,8,8';
      await expect
        .poll(async () => (await journalStatus(core)).state === 'damaged' || (await moved()), { timeout: 30_000, interval: 100 })
        .toBe(true);
      expect(await balances()).toEqual(['68', '8', '8', '8', '8']);
      const status = await journalStatus(core);
      expect(status.state).toBe('damaged');
      expect(status.damage!.reason).toMatch(/anchor|main sub transfer td\S+ of 8 USDT.*went back in time/);
    } finally {
      await core.close();
    }
  }, 150_000);
});

describe('two desks on one API key', () => {
  it("neither takes the other's writes for entries its journal lost: both stay in step and keep sending", async () => {
    const withdrawal = (amount: string) => ({
      kind: 'withdrawal' as const,
      input: { currency: 'USDT', amount, address: ADDRS[0]!, chain: 'TRX' },
    });
    const first = open(join(sb.dir, 'desk-one'));
    let second: Desk | null = null;
    try {
      expect(await sendGoverned(first, withdrawal('21'))).toMatchObject({ state: 'accepted' });
      // The second desk starts on an account already holding the first desk's id, and reads it back.
      second = open(join(sb.dir, 'desk-two'));
      expect(await sendGoverned(second, withdrawal('22'))).toMatchObject({ state: 'accepted' });
      await first.close();
      // And the first, started again, reads the second's.
      const again = open(join(sb.dir, 'desk-one'));
      try {
        expect(await sendGoverned(again, withdrawal('23'))).toMatchObject({ state: 'accepted' });
        expect((await journalStatus(again)).state).toBe('ok');
        expect((await journalStatus(second)).state).toBe('ok');
      } finally {
        await again.close();
      }
    } finally {
      await first.close().catch(() => {});
      await second?.close();
    }
  }, 120_000);
});

describe('a data folder restored from a copy taken during a run of approved orders', () => {
  it('no order is placed twice: each approved order stands at the exchange once, and the desk names what it found', async () => {
    const creds = readSandboxCredentials(sb.credentialsPath);
    // Each placement answers slowly, so that the copy falls while some orders are out and others wait.
    await adminCall(creds, 'POST', '/faults', { kind: 'latency', latency_ms: 1500, path: '/spot/orders', method: 'POST', times: 6 });
    const home = join(sb.dir, 'orders');
    let core = open(home);
    const operator = await ensureOperator(core);
    const refs: string[] = [];
    // Five resting buys far under the market, each drafted and signed as the operator would, one after
    // another: two before the copy is taken, three after (so the copy is always of a run still going).
    const place = async (prices: string[]) => {
      for (const price of prices) {
        const write = {
          kind: 'spot_order',
          input: { currency_pair: 'BTC_USDT', side: 'buy', type: 'limit', account: 'spot', amount: '0.001', price, time_in_force: 'gtc' },
        };
        const t = await ok<{ ticket: string; ref: string }>(core.invoke('approvalsDraft', { write }));
        refs.push(t.ref);
        await ok(core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
      }
    };
    const intents = async () =>
      (await ok<{ items: IntentView[] }>(core.invoke('intentsList', {}))).items.filter((v) => refs.includes(v.id));
    const placed = async () => (await intents()).filter((v) => v.state === 'accepted' || v.state === 'done').length;
    await place(['20000', '20100']);
    await expect.poll(placed, { timeout: 30_000, interval: 20 }).toBe(2);
    const copy = join(sb.dir, 'orders-copy');
    cpSync(home, copy, { recursive: true });
    await place(['20200', '20300', '20400']);
    await expect.poll(placed, { timeout: 60_000, interval: 200 }).toBe(5);
    // An order's client id is the text it carries at the exchange (writes/inputs.ts orderText).
    const texts = (await intents()).map((v) => v.client_id!);
    /** How many orders stand at the exchange under each of the desk's texts, read by the test's own client. */
    const atExchange = async (): Promise<number[]> => {
      const open = await exchange.request(
        {
          method: 'GET',
          path: '/spot/orders',
          query: [
            ['currency_pair', 'BTC_USDT'],
            ['status', 'open'],
            ['limit', '100'],
          ],
        },
        z.array(SpotOrder),
      );
      return texts.map((t) => open.filter((o) => o.text === t).length);
    };
    expect(await atExchange()).toEqual([1, 1, 1, 1, 1]);
    await core.close();

    rmSync(home, { recursive: true });
    cpSync(copy, home, { recursive: true });
    core = open(home);
    try {
      const twice = async (): Promise<boolean> => (await atExchange()).some((n) => n > 1);
      await expect
        .poll(async () => (await journalStatus(core)).state === 'damaged' || (await twice()), { timeout: 30_000, interval: 100 })
        .toBe(true);
      expect(await atExchange()).toEqual([1, 1, 1, 1, 1]);
      const status = await journalStatus(core);
      expect(status.state).toBe('damaged');
      // Either the anchor outside the folder saw the journal shorter than it was, or the reconciliation read
      // back orders placed after the copy, by their text.
      expect(status.damage!.reason).toMatch(/anchor|spot order t-td\S+ of 0\.001 BTC_USDT.*went back in time/);
    } finally {
      await core.close();
    }
  }, 150_000);
});
