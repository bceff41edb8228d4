import type { SandboxKey } from '../shared/sandbox.ts';
import { randomBytes } from 'node:crypto';
import type { DB } from './db.ts';
import { getMeta, setMeta } from './db.ts';
import { HOUSE_UID } from './ledger.ts';
import { addressShape } from './ledger/addresses.ts';
import { CURRENCIES, seedCatalog, type ChainDef } from './ledger/catalog.ts';
import { nextAt, PACE_SEC } from './ledger/withdrawals.ts';
import { seedMakers } from './market/makers.ts';
import { bookSeededHistory } from './seedBook.ts';
import { mulberry32 } from '../shared/random.ts';

export const PERMISSION_GROUPS = ['spot', 'futures', 'delivery', 'wallet', 'withdraw'] as const;
export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];
export type PermissionLevel = 'none' | 'read' | 'write';
export type Permissions = Record<PermissionGroup, PermissionLevel> & { unified: boolean };

export const ALL_WRITE: Permissions = {
  spot: 'write',
  futures: 'write',
  delivery: 'write',
  wallet: 'write',
  withdraw: 'write',
  unified: true,
};
export const ALL_READ: Permissions = {
  spot: 'read',
  futures: 'read',
  delivery: 'read',
  wallet: 'read',
  withdraw: 'read',
  unified: true,
};

export type KeyPair = SandboxKey;

export type WorldName = 'demo' | 'bench';

export function createKey(db: DB, uid: string, perms: Permissions, label: string, ipAllow: string[] = []): KeyPair {
  const key = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('hex');
  db.prepare('INSERT INTO api_keys (key, secret, uid, perms, ip_allow, label) VALUES (?, ?, ?, ?, ?, ?)').run(
    key,
    secret,
    uid,
    JSON.stringify(perms),
    JSON.stringify(ipAllow),
    label,
  );
  return { uid, key, secret };
}

// login_name allows letters, digits and underscores only (live service's sub-account rules).
const SUB_NAMES = [
  'market_making_1',
  'market_making_2',
  'arbitrage',
  'treasury_reserve',
  'otc_desk',
  'payroll',
  'hedging',
  'liquidity_eu',
  'liquidity_asia',
  'liquidity_us',
  'fees_collector',
  'cold_rebalance',
  'listing_fund',
  'research',
  'grid_bot',
  'quant_alpha',
  'quant_beta',
  'options_desk',
  'delivery_desk',
  'staking',
  'partner_a',
  'partner_b',
  'audit_escrow',
  'ops_float',
];
/** Demo sub-accounts that hold delivery and options accounts too, and the one that is locked. */
const DERIVATIVE_SUBS = new Set([0, 17, 18]);
const LOCKED_SUB = 22;

const DAY = 86400;
/** Uids: main accounts are FIRST_MAIN + k * MAIN_STRIDE; sub-account i of a main is main + 100 + i. */
const FIRST_MAIN = 10000001;
const MAIN_STRIDE = 100000;

export interface SeedResult {
  main: KeyPair;
  readOnly: KeyPair;
  subAccounts: KeyPair[];
}

/**
 * The decimal string at fraction `r` (in [0, 1)) of the way from lo to hi, truncated to `places` decimals.
 * The sign is written apart from the digits: padding a negative count of units put the zeros after the
 * minus ("0.0000-5", "-.345678"), and a desk that checks amounts refused the whole answer holding one.
 */
export function decimalBetween(r: number, lo: number, hi: number, places: number): string {
  const units = Math.floor((lo + r * (hi - lo)) * 10 ** places);
  const digits = String(Math.abs(units)).padStart(places + 1, '0');
  const body = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`.replace(/\.?0+$/, '');
  return units < 0 ? `-${body}` : body || '0';
}

class Gen {
  constructor(readonly rand: () => number) {}
  int(n: number): number {
    return Math.floor(this.rand() * n);
  }
  u32 = (): number => Math.floor(this.rand() * 4294967296);
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  /** Decimal string with `places` decimals between lo and hi, built from integers (no float formatting). */
  amount(lo: number, hi: number, places: number): string {
    return decimalBetween(this.rand(), lo, hi, places);
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(16)];
    return s;
  }
}

/** Typical withdrawal sizes per currency: [lo, hi] in units. */
const SIZES: Record<string, [number, number]> = {
  USDT: [20, 15000],
  USDC: [20, 8000],
  BTC: [0.002, 0.4],
  ETH: [0.02, 8],
  SOL: [0.5, 150],
  XRP: [25, 20000],
  TRX: [20, 50000],
  DOGE: [40, 60000],
  GT: [1, 900],
};
const WEIGHTED = ['USDT', 'USDT', 'USDT', 'USDT', 'BTC', 'BTC', 'ETH', 'ETH', 'SOL', 'XRP', 'TRX', 'DOGE', 'GT', 'USDC'];

function withdrawableChains(currency: string): ChainDef[] {
  return CURRENCIES.find((c) => c.currency === currency)!.chains.filter((c) => !c.is_withdraw_disabled);
}

/** What seeding runs an insert with: a prepared statement, or one that holds its rows back (oldestFirst). */
interface Runs {
  run(...params: unknown[]): unknown;
}

type Stmts = Omit<ReturnType<typeof statements>, 'wd' | 'dep'> & { wd: Runs; dep: Runs };

function statements(db: DB) {
  return {
    acct: db.prepare('INSERT INTO accounts (uid, main_uid, name, locked, created_at) VALUES (?, ?, ?, ?, ?)'),
    bal: db.prepare(`INSERT OR REPLACE INTO balances (uid, account_type, sub_key, currency, available, locked, borrowed, unrealised_pnl)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    wd: db.prepare(`INSERT INTO withdrawals (uid, withdraw_order_id, currency, chain, address, memo, amount, fee, status, type, route, outcome,
      txid, block_number, fail_reason, timestamp, timestamp2, next_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'withdraw', ?, ?, ?, ?, ?, ?, ?, ?)`),
    dep: db.prepare(
      'INSERT INTO deposits (uid, currency, chain, address, memo, amount, txid, status, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    tr: db.prepare(`INSERT INTO transfers (kind, main_uid, from_uid, from_type, to_uid, to_type, sub_account, sub_account_type, direction, currency,
      amount, source, client_order_id, status, timest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'SUCCESS', ?)`),
    push: db.prepare(
      'INSERT INTO uid_transfers (push_uid, receive_uid, currency, amount, create_time, status, message) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    saved: db.prepare(
      'INSERT INTO saved_addresses (uid, currency, chain, address, name, tag, verified, ord) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    small: db.prepare('INSERT INTO small_balance_history (uid, currency, amount, gt_amount, create_time) VALUES (?, ?, ?, ?, ?)'),
  };
}

function seedBalances(s: Stmts, g: Gen, uid: string, f: number, opts: { derivatives: boolean; dust: boolean; finance: boolean }): void {
  s.bal.run(uid, 'spot', '', 'USDT', g.amount(50000 * f, 80000 * f, 6), g.amount(0, 500 * f, 6), '0', '0');
  s.bal.run(uid, 'spot', '', 'BTC', g.amount(0.1 * f, 3 * f, 8), '0', '0', '0');
  s.bal.run(uid, 'spot', '', 'ETH', g.amount(1 * f, 40 * f, 8), g.amount(0, 0.5 * f, 8), '0', '0');
  s.bal.run(uid, 'spot', '', 'SOL', g.amount(5 * f, 400 * f, 8), '0', '0', '0');
  s.bal.run(uid, 'spot', '', 'GT', g.amount(10 * f, 500 * f, 8), '0', '0', '0');
  s.bal.run(uid, 'spot', '', 'USDC', g.amount(100 * f, 9000 * f, 6), '0', '0', '0');
  s.bal.run(uid, 'spot', '', 'XRP', g.amount(100 * f, 9000 * f, 6), '0', '0', '0');
  if (opts.dust) {
    s.bal.run(uid, 'spot', '', 'DOGE', g.amount(1, 30, 8), '0', '0', '0');
    s.bal.run(uid, 'spot', '', 'TRX', g.amount(1, 30, 6), '0', '0', '0');
    s.bal.run(uid, 'spot', '', 'PEPEX', g.amount(100000, 2000000, 8), '0', '0', '0');
  }
  s.bal.run(uid, 'margin', 'BTC_USDT', 'BTC', g.amount(0, 0.5 * f, 8), '0', g.amount(0, 0.05 * f, 8), '0');
  s.bal.run(uid, 'margin', 'BTC_USDT', 'USDT', g.amount(100 * f, 5000 * f, 6), '0', '0', '0');
  s.bal.run(uid, 'margin', 'ETH_USDT', 'ETH', g.amount(0, 5 * f, 8), '0', '0', '0');
  s.bal.run(uid, 'margin', 'ETH_USDT', 'USDT', g.amount(50 * f, 2000 * f, 6), '0', g.amount(0, 100 * f, 6), '0');
  s.bal.run(uid, 'futures', 'usdt', 'USDT', g.amount(500 * f, 20000 * f, 6), g.amount(0, 300 * f, 6), '0', g.amount(-200 * f, 300 * f, 6));
  s.bal.run(uid, 'futures', 'btc', 'BTC', g.amount(0, 0.3 * f, 8), '0', '0', g.amount(0, 0.01 * f, 8));
  s.bal.run(uid, 'cross_margin', '', 'USDT', g.amount(0, 8000 * f, 6), '0', g.amount(0, 500 * f, 6), '0');
  s.bal.run(uid, 'cross_margin', '', 'BTC', g.amount(0, 0.2 * f, 8), '0', '0', '0');
  if (opts.derivatives) {
    s.bal.run(uid, 'delivery', 'usdt', 'USDT', g.amount(1000, 5000, 6), '0', '0', g.amount(-50, 80, 6));
    s.bal.run(uid, 'options', '', 'USDT', g.amount(500, 3000, 6), '0', '0', g.amount(-20, 40, 6));
  }
  if (opts.finance) s.bal.run(uid, 'finance', '', 'USDT', g.amount(10000, 30000, 6), '0', '0', '0');
}

function seedWithdrawal(s: Stmts, g: Gen, uid: string, ts: number, status: string, now: number, woid: string, speed = 1): void {
  const currency = g.pick(WEIGHTED);
  const chain = g.pick(withdrawableChains(currency));
  const [lo, hi] = SIZES[currency]!;
  const amount = g.amount(lo, hi, Math.min(chain.decimal, 6));
  const memo = chain.is_tag ? String(100000 + g.int(899999)) : '';
  const sent = ['EXTPEND', 'DONE', 'FAIL'].includes(status);
  const route = status === 'REVIEW' ? 'review' : status === 'MANUAL' ? 'manual' : 'direct';
  const outcome = status === 'FAIL' ? 'fail' : 'done';
  const final = ['DONE', 'CANCEL', 'REJECT'].includes(status);
  const live = PACE_SEC[status] !== undefined && !final;
  s.wd.run(
    uid,
    woid,
    currency,
    chain.chain,
    addressShape(chain.chain, g.u32),
    memo,
    amount,
    chain.fee_fix,
    status,
    route,
    outcome,
    sent ? g.hex(64) : '',
    status === 'DONE' ? String(17_000_000 + g.int(3_000_000)) : '',
    status === 'CANCEL' ? 'Cancelled by the user' : '',
    ts,
    status === 'DONE' || status === 'CANCEL' ? ts + 600 + g.int(3000) : null,
    live ? nextAt(status, now, speed) : null,
  );
}

function seedDeposit(s: Stmts, g: Gen, uid: string, ts: number, status: string): void {
  const currency = g.pick(WEIGHTED);
  const chain = g.pick(CURRENCIES.find((c) => c.currency === currency)!.chains);
  const [lo, hi] = SIZES[currency]!;
  s.dep.run(
    uid,
    currency,
    chain.chain,
    addressShape(chain.chain, g.u32),
    chain.is_tag ? String(100000 + g.int(899999)) : '',
    g.amount(lo, hi * 2, Math.min(chain.decimal, 6)),
    g.hex(64),
    status,
    ts,
  );
}

function historicStatus(g: Gen): string {
  const r = g.rand();
  return r < 0.86 ? 'DONE' : r < 0.94 ? 'CANCEL' : 'REJECT';
}

function seedTransfers(s: Stmts, g: Gen, mainUid: string, subs: string[], n: number, now: number, days: number): void {
  for (let i = 0; i < n; i++) {
    const sub = g.pick(subs);
    const type = g.rand() < 0.75 ? 'spot' : 'futures';
    const currency = type === 'futures' ? 'USDT' : g.pick(['USDT', 'USDT', 'BTC', 'ETH']);
    const direction = g.rand() < 0.6 ? 'to' : 'from';
    const amount = currency === 'USDT' ? g.amount(50, 20000, 2) : g.amount(0.01, 2, 6);
    const [fu, ft, tu, tt] = direction === 'to' ? [mainUid, 'spot', sub, type] : [sub, type, mainUid, 'spot'];
    const api = g.rand() < 0.6;
    s.tr.run(
      'main_sub',
      mainUid,
      fu,
      ft,
      tu,
      tt,
      sub,
      type,
      direction,
      currency,
      amount,
      api ? 'api' : 'web',
      api ? `seed-${mainUid}-${i}` : '',
      now - 120 - g.int(days * DAY),
    );
  }
}

function createAccounts(db: DB, s: Stmts, world: WorldName, mainUid: string, now: number): SeedResult {
  const nSubs = world === 'bench' ? 1000 : SUB_NAMES.length;
  s.acct.run(mainUid, null, world === 'bench' ? 'bench_main' : 'treasury_main', 0, now - 400 * DAY);
  const main = createKey(db, mainUid, ALL_WRITE, 'main');
  const readOnly = createKey(db, mainUid, ALL_READ, 'read-only');
  const subAccounts: KeyPair[] = [];
  for (let i = 0; i < nSubs; i++) {
    const uid = String(Number(mainUid) + 100 + i);
    const name = world === 'bench' ? `bench_sub_${String(i + 1).padStart(4, '0')}` : SUB_NAMES[i]!;
    s.acct.run(uid, mainUid, name, world === 'demo' && i === LOCKED_SUB ? 1 : 0, now - (300 - i) * DAY);
    if (i < 3) subAccounts.push(createKey(db, uid, ALL_WRITE, `sub ${name}`));
  }
  return { main, readOnly, subAccounts };
}

/** Each world's own seed: the same records on every machine, unless a test asks for another world of the kind. */
const WORLD_SEEDS: Record<WorldName, number> = { demo: 42, bench: 7 };

function seedDemoData(s: Stmts, g: Gen, mainUid: string, subs: string[], now: number, speed: number): void {
  seedBalances(s, g, mainUid, 10, { derivatives: true, dust: true, finance: true });
  subs.forEach((uid, i) => seedBalances(s, g, uid, 1, { derivatives: DERIVATIVE_SUBS.has(i), dust: i % 4 === 0, finance: false }));

  // 90 days of history: settled records, then a few of every other §3.1 list status in recent days.
  for (let i = 0; i < 360; i++)
    seedWithdrawal(s, g, mainUid, now - 2 * DAY - g.int(88 * DAY), historicStatus(g), now, g.rand() < 0.6 ? `desk-${mainUid}-${i}` : '');
  for (const st of ['BCODE', 'FVERIFY', 'LOCKED']) seedWithdrawal(s, g, mainUid, now - DAY - g.int(DAY), st, now, '');
  for (const st of ['REQUEST', 'REQUEST', 'REVIEW', 'REVIEW', 'MANUAL', 'MANUAL', 'EXTPEND', 'EXTPEND', 'FAIL', 'CANCELPEND']) {
    seedWithdrawal(s, g, mainUid, now - 60 - g.int(3000), st, now, `desk-${mainUid}-${st}-${g.int(1000)}`, speed);
  }
  for (let i = 0; i < 270; i++) seedDeposit(s, g, mainUid, now - DAY - g.int(89 * DAY), g.rand() < 0.93 ? 'DONE' : 'DEP_CREDITED');
  for (const st of ['TRACK', 'PEND', 'REVIEW', 'MANUAL', 'BLOCKED', 'INVALID']) seedDeposit(s, g, mainUid, now - 60 - g.int(DAY), st);
  subs.forEach((uid) => {
    for (let i = 0; i < 4; i++) seedDeposit(s, g, uid, now - g.int(90 * DAY) - 60, 'DONE');
  });

  seedTransfers(s, g, mainUid, subs, 300, now, 90);
  for (let i = 0; i < 40; i++) {
    const sub = g.pick(subs),
      other = g.pick(subs);
    if (sub !== other)
      s.tr.run(
        'sub_sub',
        mainUid,
        sub,
        'spot',
        other,
        'spot',
        '',
        '',
        '',
        'USDT',
        g.amount(10, 3000, 2),
        'api',
        '',
        now - 120 - g.int(90 * DAY),
      );
  }
  for (let i = 0; i < 60; i++) {
    const [from, to] = g.rand() < 0.5 ? ['spot', 'futures'] : ['futures', 'spot'];
    s.tr.run(
      'own',
      mainUid,
      mainUid,
      from,
      mainUid,
      to,
      '',
      '',
      '',
      'USDT',
      g.amount(100, 10000, 2),
      'api',
      '',
      now - 120 - g.int(90 * DAY),
    );
  }

  const pushStatuses = ['RECEIVED', 'RECEIVED', 'RECEIVED', 'RECEIVED', 'CANCELLED', 'REFUSED', 'PENDING'];
  for (let i = 0; i < 40; i++) {
    const external = String(20000001 + g.int(5000));
    const outgoing = g.rand() < 0.6;
    const status = g.pick(pushStatuses);
    const currency = g.pick(['USDT', 'USDT', 'BTC', 'ETH']);
    const [lo, hi] = SIZES[currency]!;
    s.push.run(
      outgoing ? mainUid : external,
      outgoing ? external : mainUid,
      currency,
      g.amount(lo, hi / 4, 4),
      now - 120 - g.int(90 * DAY),
      status,
      status === 'PENDING' ? 'Waiting for the receiver to accept' : '',
    );
  }

  const saved: [string, string, string, string][] = [
    ['USDT', 'TRX', 'Cold wallet TRC20', '1'],
    ['USDT', 'ETH', 'Cold wallet ERC20', '1'],
    ['USDT', 'TON', 'Payroll TON', '0'],
    ['USDT', 'TRX', 'OTC partner', '0'],
    ['BTC', 'BTC', 'Cold storage', '1'],
    ['BTC', 'BTC', 'Custodian', '1'],
    ['ETH', 'ETH', 'Treasury multisig', '1'],
    ['ETH', 'ARBEVM', 'L2 ops', '0'],
    ['XRP', 'XRP', 'Remittance', '1'],
    ['SOL', 'SOL', 'Validator', '0'],
    ['USDC', 'SOL', 'Market maker', '1'],
    ['GT', 'GTEVM', 'Fee vault', '0'],
  ];
  saved.forEach(([currency, chain, name, verified], i) => {
    const def = CURRENCIES.find((c) => c.currency === currency)!.chains.find((c) => c.chain === chain)!;
    s.saved.run(mainUid, currency, chain, addressShape(chain, g.u32), name, def.is_tag ? String(100000 + g.int(899999)) : '', verified, i);
  });
  for (const [c, amt, gt] of [
    ['DOGE', '12.5', '0.21'],
    ['TRX', '20.1', '0.28'],
    ['PEPEX', '850000', '0.21'],
    ['XRP', '3.2', '0.19'],
    ['DOGE', '7.75', '0.13'],
  ] as const) {
    s.small.run(mainUid, c, amt, gt, now - 120 - g.int(90 * DAY));
  }
}

/**
 * Statements that hold the withdrawals and deposits back and insert them oldest first, as an exchange
 * records them. Drawn in random time order, a year's 100,000 withdrawals scattered each 30-day page of
 * 1,000 over as many pages of the table: reading a page's rows took 7.7 ms so, 5.9 ms in time order.
 * The draws are the same, so is the world; only the ids now grow with time.
 */
function oldestFirst(s: Stmts): { s: Stmts; insert: () => void } {
  const rows = { wd: [] as unknown[][], dep: [] as unknown[][] };
  const hold = (list: unknown[][]): Runs => ({ run: (...params: unknown[]) => list.push(params) });
  return {
    s: { ...s, wd: hold(rows.wd), dep: hold(rows.dep) },
    insert() {
      // The timestamp is the last parameter of the deposit insert and the third from last of the withdrawal's.
      const byTime = (at: number) => (a: unknown[], b: unknown[]) => (a.at(at) as number) - (b.at(at) as number);
      for (const r of rows.wd.sort(byTime(-3))) s.wd.run(...r);
      for (const r of rows.dep.sort(byTime(-1))) s.dep.run(...r);
    },
  };
}

function seedBenchData(s: Stmts, g: Gen, mainUid: string, subs: string[], now: number): void {
  seedBalances(s, g, mainUid, 100, { derivatives: true, dust: false, finance: true });
  for (const uid of subs) {
    s.bal.run(uid, 'spot', '', 'USDT', g.amount(100, 50000, 6), '0', '0', '0');
    s.bal.run(uid, 'spot', '', 'BTC', g.amount(0, 2, 8), '0', '0', '0');
    s.bal.run(uid, 'margin', 'BTC_USDT', 'USDT', g.amount(0, 2000, 6), '0', '0', '0');
    s.bal.run(uid, 'futures', 'usdt', 'USDT', g.amount(0, 10000, 6), '0', '0', g.amount(-50, 50, 6));
    s.bal.run(uid, 'cross_margin', '', 'USDT', g.amount(0, 3000, 6), '0', '0', '0');
  }
  const held = oldestFirst(s);
  for (let i = 0; i < 100_000; i++) seedWithdrawal(held.s, g, mainUid, now - 60 - g.int(365 * DAY), historicStatus(g), now, `bench-${i}`);
  for (let i = 0; i < 20_000; i++) seedDeposit(held.s, g, mainUid, now - 60 - g.int(365 * DAY), 'DONE');
  held.insert();
  seedTransfers(s, g, mainUid, subs, 2000, now, 365);
}

/** Seeds one account tree (a main account and its sub-accounts); with existing accounts, only their data. */
function seedTree(db: DB, world: WorldName, mainUid: string, now: number, withAccounts: boolean): SeedResult | null {
  const g = new Gen(mulberry32(Number(getMeta(db, 'seed') ?? WORLD_SEEDS[world])));
  const s = statements(db);
  const result = withAccounts ? createAccounts(db, s, world, mainUid, now) : null;
  const subs = (
    db.prepare('SELECT uid FROM accounts WHERE main_uid = ? ORDER BY CAST(uid AS INTEGER)').all(mainUid) as { uid: string }[]
  ).map((r) => r.uid);
  if (world === 'bench') seedBenchData(s, g, mainUid, subs, now);
  // The records seeded in a live status move on at the Sandbox's own speed, as any other withdrawal does.
  else seedDemoData(s, g, mainUid, subs, now, Number(getMeta(db, 'speed') ?? 1));
  bookSeededHistory(db, [mainUid, ...subs], now);
  return result;
}

function seedHouse(db: DB, now: number): void {
  if (db.prepare('SELECT 1 FROM accounts WHERE uid = ?').get(HOUSE_UID)) return;
  db.prepare('INSERT INTO accounts (uid, main_uid, name, locked, created_at) VALUES (?, NULL, ?, 0, ?)').run(
    HOUSE_UID,
    'sandbox_house',
    now,
  );
  db.prepare("INSERT INTO balances (uid, account_type, sub_key, currency, available) VALUES (?, 'spot', '', 'GT', '100000000')").run(
    HOUSE_UID,
  );
}

/**
 * Seeds a new Sandbox: the catalog, the house account and the first main account's tree, in one transaction.
 * `seed` picks another world of the same kind (kept, so that copies and resets draw the same records).
 */
export function seedWorld(db: DB, world: WorldName, nowSec: number, seed?: number, speed = 1): SeedResult {
  const now = Math.floor(nowSec);
  return db.transaction(() => {
    if (seed !== undefined) setMeta(db, 'seed', String(seed));
    setMeta(db, 'speed', String(speed));
    seedCatalog(db);
    seedHouse(db, now);
    const mainUid = String(FIRST_MAIN);
    const result = seedTree(db, world, mainUid, now, true)!;
    if (world === 'demo') seedMakers(db, now);
    setMeta(db, 'world', world);
    setMeta(db, 'main_uid', mainUid);
    return result;
  })();
}

/** A whole further copy of a world under a new main account (for a second client in one benchmark run). */
export function copyWorld(db: DB, world: WorldName, nowSec: number): SeedResult {
  return db.transaction(() => {
    const top = db.prepare('SELECT MAX(CAST(uid AS INTEGER)) AS m FROM accounts WHERE main_uid IS NULL AND uid != ?').get(HOUSE_UID) as {
      m: number | null;
    };
    const next = Math.max(
      FIRST_MAIN,
      Math.floor(((top.m ?? FIRST_MAIN) - FIRST_MAIN) / MAIN_STRIDE) * MAIN_STRIDE + FIRST_MAIN + MAIN_STRIDE,
    );
    return seedTree(db, world, String(next), Math.floor(nowSec), true)!;
  })();
}

/**
 * Back to the seeded state: every record and balance is rebuilt, accounts added since (copies,
 * sub-accounts) are removed with their keys; the first tree's keys stay valid, so credentials.json holds.
 */
export function resetWorld(db: DB, nowSec: number): void {
  const world = (getMeta(db, 'world') ?? 'demo') as WorldName;
  const mainUid = getMeta(db, 'main_uid') ?? String(FIRST_MAIN);
  const nSubs = world === 'bench' ? 1000 : SUB_NAMES.length;
  db.transaction(() => {
    for (const t of [
      'withdrawals',
      'withdrawal_days',
      'deposits',
      'transfers',
      'uid_transfers',
      'saved_addresses',
      'deposit_addresses',
      'small_balance_history',
      'ledger_entries',
      'balances',
      'spot_orders',
      'spot_fills',
      'pair_last',
      'stp_members',
      'sub_account_profiles',
    ]) {
      db.prepare(`DELETE FROM ${t}`).run();
    }
    // Trades moved the valuation prices; the seeded world starts from the catalog's.
    const price = db.prepare('UPDATE prices SET usdt = ? WHERE currency = ?');
    for (const c of CURRENCIES) price.run(c.price, c.currency);
    const keep = `uid = '${HOUSE_UID}' OR uid = '${mainUid}' OR (main_uid = '${mainUid}' AND CAST(uid AS INTEGER) < ${Number(mainUid) + 100 + nSubs})`;
    db.prepare(`DELETE FROM api_keys WHERE uid IN (SELECT uid FROM accounts WHERE NOT (${keep}))`).run();
    db.prepare(`DELETE FROM accounts WHERE NOT (${keep})`).run();
    // Keys made over /sub_accounts/{user_id}/keys have a state row; the seeded ones do not.
    db.prepare('DELETE FROM api_keys WHERE key IN (SELECT key FROM api_key_states)').run();
    db.prepare('DELETE FROM api_key_states').run();
    db.prepare('UPDATE accounts SET locked = 0').run();
    if (world === 'demo') db.prepare('UPDATE accounts SET locked = 1 WHERE uid = ?').run(String(Number(mainUid) + 100 + LOCKED_SUB));
    db.prepare("INSERT INTO balances (uid, account_type, sub_key, currency, available) VALUES (?, 'spot', '', 'GT', '100000000')").run(
      HOUSE_UID,
    );
    seedTree(db, world, mainUid, Math.floor(nowSec), false);
    if (world === 'demo') seedMakers(db, Math.floor(nowSec));
  })();
}
