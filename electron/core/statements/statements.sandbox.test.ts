import Database from 'better-sqlite3';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Statement, StatementEvery } from '../../../shared/statements.ts';
import { ApiClient } from '../client/client.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore } from '../testkit/sandboxCore.ts';
import { pdfPages } from './testkit/pdfText.ts';
import { z } from 'zod';

// Statements against a real Sandbox over HTTP: random worlds of deposits, withdrawals (done, cancelled,
// rejected, failed), main/sub transfers both ways, transfers between own account types, spot trades
// with their fees, UID transfers to another main account, small-balance conversions and deposits to the
// sub-account. For each currency they touch, of the main account and of the sub-account, the statement's
// opening + movements is the exchange's closing balance to the last decimal, with nothing unexplained; a
// withdrawal taken out of the desk's cache is then named as the difference.

const sb = useSandbox('statements', { limits: false });

const Any = z.unknown();
const Op = fc.oneof(
  fc.record({ op: fc.constant('deposit' as const), currency: fc.constantFrom('USDT', 'BTC'), amount: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({
    op: fc.constant('withdraw' as const),
    amount: fc.integer({ min: 2, max: 400 }),
    end: fc.constantFrom('DONE', 'CANCEL', 'REJECT', 'FAIL', 'REQUEST'),
  }),
  fc.record({ op: fc.constant('sub' as const), amount: fc.integer({ min: 1, max: 300 }), direction: fc.constantFrom('to', 'from') }),
  fc.record({ op: fc.constant('own' as const), amount: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ op: fc.constant('trade' as const), side: fc.constantFrom('buy', 'sell'), quote: fc.integer({ min: 20, max: 200 }) }),
  fc.record({ op: fc.constant('push' as const), amount: fc.integer({ min: 1, max: 90 }) }),
  fc.record({ op: fc.constant('subDeposit' as const), amount: fc.integer({ min: 1, max: 900 }) }),
  // 3 DOGE is worth less than the 5 USDT under which a balance converts (§2.9).
  fc.record({ op: fc.constant('dust' as const) }),
);
type Op = typeof Op extends fc.Arbitrary<infer T> ? T : never;

/** Another main account, the receiver of UID transfers. */
let otherMain = '';

async function run(client: ApiClient, op: Op): Promise<void> {
  const sub = sb.creds.sub_accounts[0]!.uid;
  const post = (path: string, body: unknown) => client.request({ method: 'POST', path, body, priority: 'action' }, Any);
  switch (op.op) {
    case 'deposit':
      await adminCall(sb.creds, 'POST', '/deposits', { uid: sb.creds.main.uid, currency: op.currency, amount: String(op.amount) });
      return;
    case 'withdraw': {
      const w = (await post('/withdrawals', {
        currency: 'USDT',
        chain: 'TRX',
        address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA',
        amount: String(op.amount),
      })) as { id: string };
      if (op.end !== 'REQUEST')
        await adminCall(sb.creds, 'POST', `/withdrawals/w${String(w.id).replace(/^w/, '')}/status`, { status: op.end });
      return;
    }
    case 'sub':
      await post('/wallet/sub_account_transfers', {
        sub_account: sub,
        currency: 'USDT',
        amount: String(op.amount),
        direction: op.direction,
      });
      return;
    case 'own':
      await post('/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: String(op.amount) });
      return;
    case 'push':
      await post('/withdrawals/push', { receive_uid: Number(otherMain), currency: 'USDT', amount: String(op.amount) });
      return;
    case 'subDeposit':
      await adminCall(sb.creds, 'POST', '/deposits', { uid: sub, currency: 'USDT', amount: String(op.amount) });
      return;
    case 'dust':
      await adminCall(sb.creds, 'POST', '/deposits', { uid: sb.creds.main.uid, currency: 'DOGE', amount: '3' });
      await post('/wallet/small_balance', { currency: ['DOGE'] });
      return;
    case 'trade':
      await post('/spot/orders', {
        currency_pair: 'BTC_USDT',
        side: op.side,
        type: 'market',
        amount: op.side === 'buy' ? String(op.quote) : '0.001',
        time_in_force: 'ioc',
      });
  }
}

function checkReconciles(s: Statement, exchangeTotal: string): void {
  expect(s.unexplained).toEqual([]);
  expect(s.difference).toBe('0');
  expect(s.closing).toBe(exchangeTotal);
  const counted = s.movements.filter((m) => m.counted).reduce((sum, m) => sum.plus(m.amount), new Decimal(s.opening));
  expect(counted.toFixed()).toBe(new Decimal(s.closing).toFixed());
}

describe('a statement of a random world', () => {
  it('reconciles every currency to the cent, and names a movement the cache lost', async () => {
    const core = sandboxCore(sb, { history: { syncEveryMs: 3_600_000, tickMs: 3_600_000 } });
    const client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true });
    // Money enough for any sequence.
    await adminCall(sb.creds, 'POST', '/deposits', { uid: sb.creds.main.uid, currency: 'USDT', amount: '100000' });
    await adminCall(sb.creds, 'POST', '/deposits', { uid: sb.creds.main.uid, currency: 'BTC', amount: '10' });
    otherMain = (await adminCall<{ main: { uid: string } }>(sb.creds, 'POST', '/accounts', { world: 'demo' })).main.uid;
    const sub = sb.creds.sub_accounts[0]!;
    const subClient = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sub, limitsOff: true });
    const total = async (currency: string, c = client) => {
      const rows = (await c.request({ method: 'GET', path: '/spot/accounts', query: [['currency', currency]] }, Any)) as {
        available: string;
        locked: string;
      }[];
      return rows[0] ? new Decimal(rows[0].available).plus(rows[0].locked).toFixed() : '0';
    };
    const statement = (from: number, currency: string, timeZone: string, account = 'main') =>
      ok<Statement>(core.invoke('statementBuild', { account, currency, from, to: Date.now() + 60_000, time_zone: timeZone }));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(Op, { minLength: 3, maxLength: 9 }),
          fc.constantFrom('UTC', 'Asia/Tokyo', 'America/New_York'),
          async (ops, tz) => {
            const from = Date.now() - 1000;
            for (const op of ops) await run(client, op);
            await ok(core.invoke('historySync', {}));
            for (const currency of ['USDT', 'BTC', 'GT', 'DOGE'])
              checkReconciles(await statement(from, currency, tz), await total(currency));
            checkReconciles(await statement(from, 'USDT', tz, sub.uid), await total('USDT', subClient));
          },
        ),
        { numRuns: 4, seed: 53, endOnFailure: true },
      );

      // A done withdrawal taken out of the desk's cache (nothing re-reads the lists meanwhile: the history
      // service's timers are an hour apart): the exchange's book still holds it.
      const from = Date.now() - 1000;
      await run(client, { op: 'withdraw', amount: 77, end: 'DONE' });
      await ok(core.invoke('historySync', {}));
      const cacheDir = join(sb.dir, 'desk', 'cache');
      const file = readdirSync(cacheDir).find((f) => f.endsWith('.sqlite'))!;
      const db = new Database(join(cacheDir, file));
      const removed = db.prepare("DELETE FROM withdrawals WHERE amount = '77' RETURNING key").all() as { key: string }[];
      db.close();
      expect(removed).toHaveLength(1);
      const s = await statement(from, 'USDT', 'UTC');
      expect(s.closing).toBe(await total('USDT'));
      expect(s.difference).toBe('-77');
      expect(s.unexplained.map((u) => u.sentence)).toEqual([
        expect.stringMatching(
          new RegExp(`^1 movement of -77 USDT not explained: the exchange's account book holds withdraw ${removed[0]!.key} \\(`),
        ),
      ]);
      expect(s.movements.find((m) => m.exchange_id === removed[0]!.key)).toMatchObject({ counted: false, amount: '-77' });

      // Issued as CSV, its digest journaled: the file verifies to the byte, and one changed figure does not.
      const issue = (format: 'csv' | 'pdf') =>
        ok<{ filename: string; content_base64: string; sha256: string }>(core.invoke('statementIssue', { id: s.id, format }));
      const verify = (bytes: Buffer) =>
        ok<{ ok: boolean; sentence: string }>(core.invoke('statementVerify', { content_base64: bytes.toString('base64') }));
      const csvFile = await issue('csv');
      const text = Buffer.from(csvFile.content_base64, 'base64').toString('utf8');
      expect(text.split('\n')[0]).toBe('date,account,currency,type,amount,fee,balance_after,exchange_id,desk_id,approved_by');
      expect(text).toContain(`withdraw (not explained),-77,`);
      expect(await verify(Buffer.from(text))).toMatchObject({
        ok: true,
        sentence: expect.stringContaining(`${csvFile.filename} (main, USDT,`),
      });
      expect(await verify(Buffer.from(text.replace(',-77,', ',-7,')))).toMatchObject({ ok: false });

      // The PDF, as a viewer reads it: the figures, the movement not explained, every page numbered and
      // its counted in and out; it verifies, and with one byte changed it does not.
      const pdfFile = await issue('pdf');
      expect(pdfFile.filename).toMatch(/^statement-main-USDT-.*\.pdf$/);
      const bytes = Buffer.from(pdfFile.content_base64, 'base64');
      const pages = await pdfPages(bytes);
      expect(pages[0]).toContain(`Exchange's closing balance ${s.closing} USDT`);
      expect(pages[0]).toContain(`Difference ${s.difference} USDT`);
      expect(pages.join(' ')).toContain('withdraw (not explained) -77');
      pages.forEach((p, i) => {
        expect(p).toContain(`Page ${i + 1} of ${pages.length}`);
        expect(p).toMatch(/Counted on this page: in [\d.]+ USDT, out -?[\d.]+ USDT/);
      });
      expect(await verify(bytes)).toMatchObject({ ok: true, sentence: expect.stringContaining(pdfFile.filename) });
      const changed = Buffer.from(bytes);
      changed[changed.length - 10]! ^= 1;
      expect(await verify(changed)).toMatchObject({ ok: false });
    } finally {
      await core.close();
    }
  }, 300_000);
});

describe('every account at month end', () => {
  it("reconciles each readable account's last 30 days of USDT and BTC over the world's seeded history", async () => {
    const core = sandboxCore(sb, { history: { syncEveryMs: 3_600_000, tickMs: 3_600_000 } });
    try {
      await ok(core.invoke('historySync', {}));
      const now = Date.now();
      const every = await ok<StatementEvery>(
        core.invoke('statementBuildEvery', {
          currencies: ['USDT', 'BTC'],
          from: now - 30 * 86_400_000,
          to: now,
          time_zone: 'Europe/Berlin',
        }),
      );
      const withKey = sb.creds.sub_accounts.map((k) => k.uid);
      expect(every.statements.map((s) => `${s.account} ${s.currency}`)).toEqual(
        ['main', ...withKey.sort()].flatMap((a) => [`${a} USDT`, `${a} BTC`]),
      );
      for (const s of every.statements) {
        expect({ account: s.account, difference: s.difference, unexplained: s.unexplained }).toEqual({
          account: s.account,
          difference: '0',
          unexplained: [],
        });
        // The seeded month moved USDT on every account: its statement is not empty.
        if (s.currency === 'USDT') expect(s.movement_count).toBeGreaterThan(0);
        // Whole, as Show opens it: the same figures and as many movements as the run counted.
        const whole = await ok<Statement>(core.invoke('statementGet', { id: s.id }));
        expect({ closing: whole.closing, movements: whole.movements.length }).toEqual({ closing: s.closing, movements: s.movement_count });
      }
      // Asked badly, a run says what is wrong and builds nothing; a statement the desk does not hold is not opened.
      await expect(ok(core.invoke('statementGet', { id: '00000000-0000-4000-8000-000000000000' }))).rejects.toThrow(
        /no longer held by the desk/i,
      );
      const period = { from: now - 86_400_000, to: now, time_zone: 'UTC' };
      await expect(ok(core.invoke('statementBuildEvery', { ...period, currencies: ['USDT', 'USDT'] }))).rejects.toThrow(
        /names a currency twice/i,
      );
      await expect(ok(core.invoke('statementBuildEvery', { ...period, accounts: ['999'], currencies: ['USDT'] }))).rejects.toThrow(
        /sub-account 999 is not one of this profile's/i,
      );
      expect(await ok<{ running: boolean; unit: string }>(core.invoke('statementProgress', {}))).toMatchObject({
        running: false,
        unit: 'statements',
      });
    } finally {
      await core.close();
    }
  }, 300_000);
});
