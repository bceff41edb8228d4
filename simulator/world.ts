import { randomBytes } from 'node:crypto';
import type { DB } from './db.ts';
import { setMeta } from './db.ts';

export const PERMISSION_GROUPS = ['spot', 'futures', 'delivery', 'wallet', 'withdraw'] as const;
export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];
export type PermissionLevel = 'none' | 'read' | 'write';
export type Permissions = Record<PermissionGroup, PermissionLevel> & { unified: boolean };

export const ALL_WRITE: Permissions = {
  spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: true,
};
export const ALL_READ: Permissions = {
  spot: 'read', futures: 'read', delivery: 'read', wallet: 'read', withdraw: 'read', unified: true,
};

export interface KeyPair { uid: string; key: string; secret: string }

/** Deterministic pseudo-random numbers, so that a world seeds the same way every time. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createKey(db: DB, uid: string, perms: Permissions, label: string, ipAllow: string[] = []): KeyPair {
  const key = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('hex');
  db.prepare('INSERT INTO api_keys (key, secret, uid, perms, ip_allow, label) VALUES (?, ?, ?, ?, ?, ?)')
    .run(key, secret, uid, JSON.stringify(perms), JSON.stringify(ipAllow), label);
  return { uid, key, secret };
}

const PRICES: Record<string, string> = {
  USDT: '1', USDC: '1', BTC: '64250.5', ETH: '3120.25', SOL: '142.8', XRP: '0.52', TRX: '0.118', DOGE: '0.1425', GT: '8.42',
};

const SUB_NAMES = [
  'market-making-1', 'market-making-2', 'arbitrage', 'treasury-reserve', 'otc-desk', 'payroll', 'hedging',
  'liquidity-eu', 'liquidity-asia', 'liquidity-us', 'fees-collector', 'cold-rebalance', 'listing-fund',
  'research', 'grid-bot', 'quant-alpha', 'quant-beta', 'options-desk', 'delivery-desk', 'staking',
  'partner-a', 'partner-b', 'audit-escrow', 'ops-float',
];

/** Amount with `places` decimals, drawn between lo and hi; returned as a decimal string. */
function amount(rand: () => number, lo: number, hi: number, places: number): string {
  const scale = 10 ** places;
  const units = Math.floor((lo + rand() * (hi - lo)) * scale);
  const s = String(units).padStart(places + 1, '0');
  return places === 0 ? s : `${s.slice(0, -places)}.${s.slice(-places)}`;
}

export interface SeedResult {
  main: KeyPair;
  readOnly: KeyPair;
  subAccounts: KeyPair[];
}

/** The demo world: one main account with 24 named sub-accounts and balances in every account type. */
export function seedDemo(db: DB, now: number): SeedResult {
  const rand = mulberry32(42);
  const mainUid = '10000001';
  const insAcct = db.prepare('INSERT INTO accounts (uid, main_uid, name, created_at) VALUES (?, ?, ?, ?)');
  const insBal = db.prepare(`INSERT INTO balances (uid, account_type, sub_key, currency, available, locked, borrowed, unrealised_pnl)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const insPrice = db.prepare('INSERT INTO prices (currency, usdt) VALUES (?, ?)');

  return db.transaction(() => {
    for (const [c, p] of Object.entries(PRICES)) insPrice.run(c, p);
    insAcct.run(mainUid, null, 'main', now);
    const seedBalances = (uid: string, big: boolean) => {
      const f = big ? 10 : 1;
      insBal.run(uid, 'spot', '', 'USDT', amount(rand, 1000 * f, 50000 * f, 6), amount(rand, 0, 500 * f, 6), '0', '0');
      insBal.run(uid, 'spot', '', 'BTC', amount(rand, 0.1 * f, 3 * f, 8), '0', '0', '0');
      insBal.run(uid, 'spot', '', 'ETH', amount(rand, 1 * f, 40 * f, 8), '0', '0', '0');
      insBal.run(uid, 'margin', 'BTC_USDT', 'BTC', amount(rand, 0, 0.5 * f, 8), '0', amount(rand, 0, 0.05 * f, 8), '0');
      insBal.run(uid, 'margin', 'BTC_USDT', 'USDT', amount(rand, 100 * f, 5000 * f, 6), '0', '0', '0');
      insBal.run(uid, 'futures', 'usdt', 'USDT', amount(rand, 500 * f, 20000 * f, 6), '0', '0', amount(rand, -200 * f, 300 * f, 6));
      insBal.run(uid, 'futures', 'btc', 'BTC', amount(rand, 0, 0.3 * f, 8), '0', '0', '0');
      insBal.run(uid, 'cross_margin', '', 'USDT', amount(rand, 0, 8000 * f, 6), '0', amount(rand, 0, 500 * f, 6), '0');
    };
    seedBalances(mainUid, true);
    insBal.run(mainUid, 'delivery', 'usdt', 'USDT', amount(rand, 1000, 5000, 6), '0', '0', '0');
    insBal.run(mainUid, 'options', '', 'USDT', amount(rand, 500, 3000, 6), '0', '0', '0');
    insBal.run(mainUid, 'finance', '', 'USDT', amount(rand, 10000, 30000, 6), '0', '0', '0');

    const main = createKey(db, mainUid, ALL_WRITE, 'main');
    const readOnly = createKey(db, mainUid, ALL_READ, 'read-only');
    const subAccounts: KeyPair[] = [];
    SUB_NAMES.forEach((name, i) => {
      const uid = String(10000101 + i);
      insAcct.run(uid, mainUid, name, now);
      seedBalances(uid, false);
      if (i < 3) subAccounts.push(createKey(db, uid, ALL_WRITE, `sub ${name}`));
    });
    setMeta(db, 'world', 'demo');
    setMeta(db, 'main_uid', mainUid);
    return { main, readOnly, subAccounts };
  })();
}

export function seedWorld(db: DB, _world: 'demo' | 'bench', nowSec: number): SeedResult {
  return seedDemo(db, Math.floor(nowSec));
}
