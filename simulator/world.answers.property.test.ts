import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CrossMarginAccount,
  Deposit,
  Fees,
  listOf,
  MarginPairAccount,
  OwnFuturesAccount,
  SavedAddress,
  SpotAccount,
  SubAccountCrossMarginBalance,
  SubAccountFuturesBalance,
  SubAccountMarginBalance,
  SubAccountSpotBalance,
  SubAccountTransfer,
  TotalBalance,
  UidTransfer,
  Withdrawal,
  WithdrawalLimits,
} from '../shared/api/records.ts';
import { isDecimalString } from '../shared/money.ts';
import { startClient, type Client } from './testkit/client.ts';
import { decimalBetween, type WorldName } from './world.ts';

// Whatever seed a world grows from, every answer the Sandbox serves from it parses with the desk's own
// record schemas (shared/api/records.ts): one malformed amount among 1,000 sub-accounts once made the
// desk's client refuse a whole answer, and the Sandbox is the desk's rehearsal exchange.

const DAY = 86_400;

describe('decimalBetween, the generator behind every seeded amount', () => {
  it('writes a decimal string inside [lo, hi] for any fraction, range and precision, negative ones included', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 8 }),
        (r, lo, width, places) => {
          const s = decimalBetween(r, lo / 1000, (lo + width) / 1000, places);
          expect(isDecimalString(s), s).toBe(true);
          // Truncated towards -infinity at `places` decimals: at most one unit below lo, never above hi
          // (the bounds are floats, so compared with a hair of slack).
          expect(Number(s)).toBeGreaterThanOrEqual(lo / 1000 - 10 ** -places - 1e-9);
          expect(Number(s)).toBeLessThanOrEqual((lo + width) / 1000 + 1e-9);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps the minus in front of the digits between -1 and 0', () => {
    expect(decimalBetween(0.6543215, -1, 0, 6)).toBe('-0.345679');
    expect(decimalBetween(0.55, -0.001, 0, 4)).toBe('-0.0005');
    expect(decimalBetween(0.5, -1, 1, 0)).toBe('0');
  });
});

interface Read {
  path: string;
  query?: (now: number) => Record<string, string | number>;
  schema: z.ZodType;
}

const window = (now: number) => ({ from: now - 29 * DAY, to: now, limit: 1000 });

const READS: Read[] = [
  { path: '/wallet/total_balance', schema: TotalBalance },
  { path: '/wallet/withdrawals', query: window, schema: listOf(Withdrawal) },
  { path: '/wallet/deposits', query: (now) => ({ ...window(now), limit: 500 }), schema: listOf(Deposit) },
  { path: '/wallet/sub_account_transfers', query: window, schema: listOf(SubAccountTransfer) },
  { path: '/wallet/push', query: window, schema: listOf(UidTransfer) },
  { path: '/wallet/withdraw_status', schema: listOf(WithdrawalLimits) },
  { path: '/wallet/fee', schema: Fees },
  { path: '/wallet/saved_address', query: () => ({ currency: 'USDT' }), schema: listOf(SavedAddress) },
  { path: '/wallet/sub_account_margin_balances', schema: listOf(SubAccountMarginBalance) },
  { path: '/wallet/sub_account_futures_balances', schema: listOf(SubAccountFuturesBalance) },
  { path: '/wallet/sub_account_cross_margin_balances', schema: listOf(SubAccountCrossMarginBalance) },
  { path: '/spot/accounts', schema: listOf(SpotAccount) },
  { path: '/margin/accounts', schema: listOf(MarginPairAccount) },
  { path: '/futures/usdt/accounts', schema: OwnFuturesAccount },
  { path: '/futures/btc/accounts', schema: OwnFuturesAccount },
  { path: '/margin/cross/accounts', schema: CrossMarginAccount },
];

/** Every answer of the world, as "path: field: problem" for each one that does not parse. */
async function unreadable(c: Client): Promise<string[]> {
  const now = Math.floor(c.s.clock.now());
  const problems: string[] = [];
  const check = (path: string, schema: z.ZodType, body: unknown) => {
    const parsed = schema.safeParse(body);
    if (!parsed.success) for (const i of parsed.error.issues) problems.push(`${path}: ${i.path.join('.')}: ${i.message}`);
  };
  for (const r of READS) {
    const reply = await c.get(r.path, r.query?.(now));
    expect(reply.status, `${r.path} ${reply.text.slice(0, 200)}`).toBe(200);
    check(r.path, r.schema, reply.json);
  }
  // Spot balances of sub-accounts come in pages of 100.
  for (let page = 1; ; page++) {
    const reply = await c.get('/wallet/sub_account_balances', { page, limit: 100 });
    expect(reply.status).toBe(200);
    check(`/wallet/sub_account_balances page ${page}`, listOf(SubAccountSpotBalance), reply.json);
    if ((reply.json as unknown[]).length < 100) break;
  }
  return problems;
}

async function everyAnswerParses(world: WorldName, seed: number): Promise<void> {
  const c = await startClient({ world, seed });
  try {
    expect(await unreadable(c), `the ${world} world of seed ${seed}`).toEqual([]);
  } finally {
    await c.s.dispose();
  }
}

describe('every seeded world', () => {
  it('answers the demo world, whatever its seed, with records the desk reads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 0xffffffff }), (seed) => everyAnswerParses('demo', seed)),
      // Each run seeds and serves a whole world (about half a second); the generator itself is covered widely above.
      { numRuns: 6, examples: [[42]] },
    );
  }, 120_000);

  it('answers the bench world of 1,000 sub-accounts, its own seed and another, with records the desk reads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 0xffffffff }), (seed) => everyAnswerParses('bench', seed)),
      { numRuns: 1, examples: [[7]] },
    );
  }, 120_000);
});
