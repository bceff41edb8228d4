import Decimal from 'decimal.js';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Dec } from '../shared/money.ts';
import { openDb, writeHeld, type DB } from './db.ts';
import { ApiError } from './errors.ts';
import { currencyTotals, negativeBalances } from './ledger.ts';
import { depositAddress } from './ledger/addresses.ts';
import { chainsOf } from './ledger/catalog.ts';
import { CREDITED, DEPOSIT_STATUSES, recordDeposit } from './ledger/deposits.ts';
import { convertSmallBalances } from './ledger/smallBalance.ts';
import { mainSubTransfer, ownTransfer, subToSubTransfer } from './ledger/transfers.ts';
import { cancelWithdrawal, createWithdrawal, enterStatus, LIST_STATUSES, REFUNDED, wireId } from './ledger/withdrawals.ts';
import { lifecycleTick } from './lifecycle.ts';
import { marketOf, type Market } from './market/service.ts';
import { parsePlace } from './routes/orderParams.ts';
import { seedWorld } from './world.ts';

// The ledger's promise (docs/sandbox.md §Ledger): whatever sequence of transfers, withdrawals, cancellations, deposits,
// life-cycle moves and conversions runs, each currency's sum over all accounts changes only by
// deposits credited and withdrawals not returned, and no balance goes negative. The expectation is
// computed from the deposit and withdrawal records, not from the ledger's own entries.

const MAIN = '10000001';
const SUBS = ['10000101', '10000102', '10000103', '10000104', '10000123'];
const NOW = 1_800_000_000;

let dir: string;
let db: DB;
// A fresh world for each test, so that no test reads what another one left.
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-ledger-'));
  db = openDb(dir);
  seedWorld(db, 'demo', NOW);
  // Two accounts share a self-trade prevention group, so that STP cancellations happen too.
  db.prepare('INSERT INTO stp_members (uid, stp_id) VALUES (?, 4), (?, 4)').run(MAIN, SUBS[0]);
  lockedOutsideOrders = lockedBesideOrders();
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const amountArb = fc
  .tuple(fc.integer({ min: 1, max: 2_000_000_000 }), fc.integer({ min: 0, max: 8 }))
  .map(([units, places]) => new Dec(units).div(new Dec(10).pow(places)).toFixed());
const currencyArb = fc.constantFrom('USDT', 'BTC', 'ETH', 'XRP');
const uidArb = fc.constantFrom(MAIN, ...SUBS);

type Op =
  | { k: 'own'; uid: string; from: string; to: string; currency: string; amount: string }
  | { k: 'mainSub'; sub: string; type: string; direction: string; currency: string; amount: string }
  | { k: 'subSub'; a: string; b: string; currency: string; amount: string }
  | { k: 'withdraw'; currency: string; amount: string; toSub: string | null }
  | { k: 'cancel'; pick: number }
  | { k: 'deposit'; uid: string; currency: string; amount: string; status: string }
  | { k: 'tick' }
  | { k: 'move'; pick: number; status: string }
  | { k: 'small'; uid: string }
  | {
      k: 'order';
      uid: string;
      pair: string;
      side: string;
      type: string;
      account: string;
      tif: string;
      ticks: number;
      size: number;
      stp: string | null;
    }
  | { k: 'cancelOrder'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    k: fc.constant('own' as const),
    uid: uidArb,
    from: fc.constantFrom('spot', 'futures', 'margin', 'delivery'),
    to: fc.constantFrom('spot', 'futures', 'margin', 'options'),
    currency: currencyArb,
    amount: amountArb,
  }),
  fc.record({
    k: fc.constant('mainSub' as const),
    sub: fc.constantFrom(...SUBS),
    type: fc.constantFrom('spot', 'futures'),
    direction: fc.constantFrom('to', 'from'),
    currency: currencyArb,
    amount: amountArb,
  }),
  fc.record({
    k: fc.constant('subSub' as const),
    a: fc.constantFrom(...SUBS),
    b: fc.constantFrom(...SUBS),
    currency: currencyArb,
    amount: amountArb,
  }),
  fc.record({
    k: fc.constant('withdraw' as const),
    currency: fc.constantFrom('USDT', 'BTC'),
    amount: amountArb,
    toSub: fc.option(fc.constantFrom(...SUBS), { nil: null }),
  }),
  fc.record({ k: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({
    k: fc.constant('deposit' as const),
    uid: uidArb,
    currency: currencyArb,
    amount: amountArb,
    status: fc.constantFrom(...DEPOSIT_STATUSES),
  }),
  fc.constant({ k: 'tick' as const }),
  fc.record({ k: fc.constant('move' as const), pick: fc.nat(), status: fc.constantFrom(...LIST_STATUSES) }),
  fc.record({ k: fc.constant('small' as const), uid: uidArb }),
  // Orders around the book's top: some rest, some cross the market maker or each other.
  ...Array.from({ length: 4 }, () =>
    fc.record({
      k: fc.constant('order' as const),
      uid: fc.constantFrom(MAIN, SUBS[0]!, SUBS[1]!),
      pair: fc.constantFrom('BTC_USDT', 'ETH_USDT', 'ETH_BTC'),
      side: fc.constantFrom('buy', 'sell'),
      type: fc.constantFrom('limit', 'limit', 'limit', 'market'),
      account: fc.constantFrom('spot', 'spot', 'margin'),
      tif: fc.constantFrom('gtc', 'gtc', 'ioc', 'poc', 'fok'),
      ticks: fc.integer({ min: -8, max: 8 }),
      size: fc.integer({ min: 1, max: 400 }),
      stp: fc.constantFrom(null, 'cn', 'co', 'cb'),
    }),
  ),
  fc.record({ k: fc.constant('cancelOrder' as const), pick: fc.nat() }),
);

/** Locked money that no open order accounts for (seeded), per pocket and currency; orders must not change it. */
let lockedOutsideOrders: Map<string, string>;
function lockedBesideOrders(): Map<string, string> {
  const out = new Map<string, Decimal>();
  const add = (k: string, d: Decimal) => out.set(k, (out.get(k) ?? new Dec(0)).plus(d));
  for (const r of db.prepare('SELECT uid, account_type, sub_key, currency, locked FROM balances').all() as {
    uid: string;
    account_type: string;
    sub_key: string;
    currency: string;
    locked: string;
  }[]) {
    add(`${r.uid}/${r.account_type}/${r.sub_key}/${r.currency}`, new Dec(r.locked));
  }
  for (const o of db.prepare("SELECT uid, account, pair, side, locked FROM spot_orders WHERE status = 'open'").all() as {
    uid: string;
    account: string;
    pair: string;
    side: string;
    locked: string;
  }[]) {
    const [base, quote] = o.pair.split('_');
    add(`${o.uid}/${o.account}/${o.account === 'margin' ? o.pair : ''}/${o.side === 'buy' ? quote : base}`, new Dec(o.locked).neg());
  }
  return new Map([...out].filter(([, v]) => !v.isZero()).map(([k, v]) => [k, v.toFixed()]));
}

function placeOrder(m: Market, op: Extract<Op, { k: 'order' }>): void {
  const pair = m.pairs.get(op.pair)!;
  const book = m.book(op.pair);
  const ref = (op.side === 'buy' ? book.bestPrice('sell') : book.bestPrice('buy')) ?? 1000 * 10 ** pair.pp;
  const tick = Math.max(1, Math.round(ref / 2000));
  const price = Math.max(1, ref + op.ticks * tick);
  const lots = op.size * 10 ** Math.max(0, pair.ap - 3);
  const body: Record<string, unknown> = { currency_pair: op.pair, side: op.side, type: op.type, account: op.account, tif: op.tif };
  if (op.type === 'market') {
    body.amount =
      op.side === 'buy' ? ((lots * price) / 10 ** (pair.pp + pair.ap)).toFixed(pair.pp) : (lots / 10 ** pair.ap).toFixed(pair.ap);
    body.time_in_force = op.tif === 'fok' ? 'fok' : 'ioc';
  } else {
    body.amount = (lots / 10 ** pair.ap).toFixed(pair.ap);
    body.price = (price / 10 ** pair.pp).toFixed(pair.pp);
    body.time_in_force = op.tif;
  }
  if (op.stp) body.stp_act = op.stp;
  m.place(op.uid, parsePlace(m, body), NOW);
}

function recentWithdrawal(pick: number): number | undefined {
  const rows = db.prepare('SELECT seq FROM withdrawals ORDER BY seq DESC LIMIT 20').all() as { seq: number }[];
  return rows.length ? rows[pick % rows.length]!.seq : undefined;
}

function run(op: Op): void {
  const settle = (c: string) => c.toLowerCase();
  // As the server does before every handler but placement: the batch's held balance changes are written first.
  if (op.k !== 'order') writeHeld(db);
  switch (op.k) {
    case 'own':
      ownTransfer(
        db,
        op.uid,
        MAIN,
        {
          currency: op.currency,
          from: op.from,
          to: op.to,
          amount: op.amount,
          currency_pair: `${op.currency === 'USDT' ? 'BTC' : op.currency}_USDT`,
          settle: settle(op.currency),
        },
        NOW,
      );
      return;
    case 'mainSub':
      mainSubTransfer(
        db,
        MAIN,
        {
          sub_account: op.sub,
          sub_account_type: op.type,
          currency: op.currency,
          amount: op.amount,
          direction: op.direction,
          client_order_id: '',
        },
        NOW,
      );
      return;
    case 'subSub':
      subToSubTransfer(
        db,
        { uid: MAIN, mainUid: MAIN, isSub: false },
        {
          currency: op.currency,
          sub_account_from: op.a,
          sub_account_from_type: 'spot',
          sub_account_to: op.b,
          sub_account_to_type: 'spot',
          amount: op.amount,
        },
        NOW,
      );
      return;
    case 'withdraw': {
      const chain = chainsOf(db, op.currency)[0]!;
      const address = op.toSub
        ? depositAddress(db, op.toSub, chain).address
        : chain.chain === 'BTC'
          ? 'bc1qexternal0000000000000000000000000000'
          : '0x3333333333333333333333333333333333333333';
      createWithdrawal(
        db,
        {
          uid: MAIN,
          currency: op.currency,
          chain: chain.chain,
          address,
          memo: '',
          amount: op.amount,
          withdraw_order_id: '',
          asset_class: '',
        },
        NOW,
        1,
        false,
      );
      return;
    }
    case 'cancel': {
      const seq = recentWithdrawal(op.pick);
      if (seq !== undefined) cancelWithdrawal(db, MAIN, wireId(seq), NOW, 1);
      return;
    }
    case 'deposit':
      recordDeposit(
        db,
        {
          uid: op.uid,
          currency: op.currency,
          chain: chainsOf(db, op.currency)[0]!.chain,
          address: 'x',
          memo: '',
          amount: op.amount,
          txid: 't',
          status: op.status,
        },
        NOW,
      );
      return;
    case 'tick':
      db.prepare('UPDATE withdrawals SET next_at = ? WHERE next_at IS NOT NULL').run(NOW);
      lifecycleTick(db, NOW, 1);
      return;
    case 'move': {
      const seq = recentWithdrawal(op.pick);
      if (seq !== undefined) enterStatus(db, seq, op.status, NOW, 1);
      return;
    }
    case 'small':
      convertSmallBalances(db, op.uid, 'all', NOW);
      return;
    case 'order':
      placeOrder(marketOf(db), op);
      return;
    case 'cancelOrder': {
      const m = marketOf(db);
      const mine = [...m.open.values()].filter((o) => o.uid === MAIN || SUBS.includes(o.uid));
      if (mine.length) m.cancel([mine[op.pick % mine.length]!], NOW);
    }
  }
}

interface Snapshot {
  totals: Map<string, Decimal>;
  maxDeposit: number;
  maxWithdrawal: number;
  refunded: Set<number>;
}

function snapshot(): Snapshot {
  writeHeld(db);
  const max = (t: string) => (db.prepare(`SELECT COALESCE(MAX(seq), 0) AS m FROM ${t}`).get() as { m: number }).m;
  const refunded = new Set(
    (db.prepare("SELECT seq FROM withdrawals WHERE status IN ('CANCEL', 'REJECT')").all() as { seq: number }[]).map((r) => r.seq),
  );
  return { totals: currencyTotals(db), maxDeposit: max('deposits'), maxWithdrawal: max('withdrawals'), refunded };
}

/** What each currency's sum should have become, from the records alone. */
function expected(s: Snapshot): Map<string, Decimal> {
  const out = new Map(s.totals);
  const add = (c: string, d: Decimal) => out.set(c, (out.get(c) ?? new Dec(0)).plus(d));
  for (const d of db.prepare('SELECT currency, amount, status FROM deposits WHERE seq > ?').all(s.maxDeposit) as {
    currency: string;
    amount: string;
    status: string;
  }[]) {
    if (CREDITED.has(d.status)) add(d.currency, new Dec(d.amount));
  }
  for (const w of db.prepare('SELECT seq, currency, amount, status FROM withdrawals').all() as {
    seq: number;
    currency: string;
    amount: string;
    status: string;
  }[]) {
    const isNew = w.seq > s.maxWithdrawal;
    if (isNew) add(w.currency, new Dec(w.amount).neg());
    if (REFUNDED.has(w.status) && (isNew || !s.refunded.has(w.seq))) add(w.currency, new Dec(w.amount));
  }
  return out;
}

test('per currency, the sum over all accounts changes only by deposits and withdrawals; nothing goes negative', () => {
  let refusals = 0,
    applied = 0;
  fc.assert(
    fc.property(fc.array(opArb, { minLength: 1, maxLength: 40 }), (ops) => {
      const before = snapshot();
      for (const op of ops) {
        try {
          run(op);
          applied++;
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          refusals++;
        }
      }
      writeHeld(db);
      const want = expected(before);
      const got = currencyTotals(db);
      for (const c of new Set([...want.keys(), ...got.keys()])) {
        expect(`${c} ${(got.get(c) ?? new Dec(0)).toFixed()}`).toBe(`${c} ${(want.get(c) ?? new Dec(0)).toFixed()}`);
      }
      expect(negativeBalances(db)).toEqual([]);
      // Orders lock exactly what the open orders hold, and the book is never left crossed.
      expect(lockedBesideOrders()).toEqual(lockedOutsideOrders);
      const m = marketOf(db);
      for (const pair of m.pairs.keys()) {
        const bid = m.book(pair).bestPrice('buy'),
          ask = m.book(pair).bestPrice('sell');
        if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
      }
    }),
    { numRuns: 60, seed: 20261122 },
  );
  const fills = (db.prepare('SELECT COUNT(*) AS n FROM spot_fills').get() as { n: number }).n;
  const stp = (db.prepare("SELECT COUNT(*) AS n FROM spot_orders WHERE finish_as = 'stp'").get() as { n: number }).n;
  expect(fills).toBeGreaterThan(100);
  expect(stp).toBeGreaterThan(0);
  // Both kinds of outcome must have happened, or the property proved little.
  expect(applied).toBeGreaterThan(100);
  expect(refusals).toBeGreaterThan(10);
});

test('the ledger journals every change with its cause', () => {
  const last = (db.prepare('SELECT COALESCE(MAX(id), 0) AS m FROM ledger_entries').get() as { m: number }).m;
  const ops: Op[] = [
    { k: 'own', uid: MAIN, from: 'spot', to: 'futures', currency: 'USDT', amount: '1' },
    { k: 'mainSub', sub: SUBS[0]!, type: 'spot', direction: 'to', currency: 'USDT', amount: '2' },
    { k: 'subSub', a: SUBS[0]!, b: SUBS[1]!, currency: 'USDT', amount: '1.5' },
    { k: 'withdraw', currency: 'USDT', amount: '25', toSub: null },
    { k: 'deposit', uid: SUBS[2]!, currency: 'USDT', amount: '4', status: 'DONE' },
  ];
  for (const op of ops) run(op);
  const entries = db.prepare('SELECT kind, ref FROM ledger_entries WHERE id > ?').all(last) as { kind: string; ref: string }[];
  // One cause per operation: each kind written under a single reference, none without one.
  const refsOf = new Map<string, Set<string>>();
  for (const e of entries) refsOf.set(e.kind, (refsOf.get(e.kind) ?? new Set()).add(e.ref));
  expect(Object.fromEntries([...refsOf].map(([k, refs]) => [k, refs.size]))).toEqual({
    transfer: 1,
    sub_transfer: 1,
    sub_to_sub: 1,
    withdraw: 1,
    deposit: 1,
  });
  expect(entries.filter((e) => e.ref === '')).toEqual([]);
  const unbalanced = db
    .prepare(
      `SELECT ref, currency, GROUP_CONCAT(delta) AS deltas FROM ledger_entries WHERE kind IN ('transfer', 'sub_transfer', 'sub_to_sub', 'small_balance')
    GROUP BY ref, currency`,
    )
    .all() as { ref: string; currency: string; deltas: string }[];
  for (const u of unbalanced)
    expect(
      u.deltas
        .split(',')
        .reduce((s, d) => s.plus(d), new Dec(0))
        .isZero(),
    ).toBe(true);
});
