import Database from 'better-sqlite3';
import { sqliteOptions } from '../shared/sqliteBinding.ts';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

export type DB = Database.Database;

// Amounts are TEXT decimal strings, computed with decimal.js (never REAL); times are integer seconds.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  uid TEXT PRIMARY KEY,
  main_uid TEXT,               -- NULL for a main account
  name TEXT NOT NULL,
  locked INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS accounts_main ON accounts(main_uid);
CREATE TABLE IF NOT EXISTS api_keys (
  key TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  uid TEXT NOT NULL REFERENCES accounts(uid),
  perms TEXT NOT NULL,         -- JSON: group -> 'none' | 'read' | 'write', plus unified
  ip_allow TEXT NOT NULL DEFAULT '[]',
  label TEXT NOT NULL DEFAULT ''
);
-- One row per account, account type and currency. account_type is spot, margin, futures, delivery,
-- options, cross_margin or finance; sub_key narrows it (margin: currency pair, futures/delivery: settle).
CREATE TABLE IF NOT EXISTS balances (
  uid TEXT NOT NULL REFERENCES accounts(uid),
  account_type TEXT NOT NULL,
  sub_key TEXT NOT NULL DEFAULT '',
  currency TEXT NOT NULL,
  available TEXT NOT NULL DEFAULT '0',
  locked TEXT NOT NULL DEFAULT '0',
  borrowed TEXT NOT NULL DEFAULT '0',
  unrealised_pnl TEXT NOT NULL DEFAULT '0',
  PRIMARY KEY (uid, account_type, sub_key, currency)
);
-- Valuation prices in USDT, used by total_balance, tickers and small balances.
CREATE TABLE IF NOT EXISTS prices (currency TEXT PRIMARY KEY, usdt TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS currencies (
  currency TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  name_cn TEXT NOT NULL,
  low_cap INTEGER NOT NULL DEFAULT 0,      -- unsupported through the wallet API (§4.1)
  deposit_fee TEXT NOT NULL DEFAULT '0',
  withdraw_min TEXT NOT NULL,
  withdraw_each TEXT NOT NULL,
  withdraw_day TEXT NOT NULL,
  review_above TEXT NOT NULL,              -- withdrawals at or above go through REVIEW
  manual_above TEXT NOT NULL,              -- withdrawals at or above go through MANUAL
  ord INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS chains (
  currency TEXT NOT NULL,
  chain TEXT NOT NULL,
  name_en TEXT NOT NULL,
  name_cn TEXT NOT NULL,
  contract_address TEXT NOT NULL DEFAULT '',
  is_disabled INTEGER NOT NULL DEFAULT 0,
  is_deposit_disabled INTEGER NOT NULL DEFAULT 0,
  is_withdraw_disabled INTEGER NOT NULL DEFAULT 0,
  decimal INTEGER NOT NULL,
  is_tag INTEGER NOT NULL DEFAULT 0,
  fee_fix TEXT NOT NULL,
  fee_percent TEXT NOT NULL,               -- percent of the amount, "0.1" = 0.1%
  min_confirms INTEGER NOT NULL,
  min_deposit TEXT NOT NULL,
  ord INTEGER NOT NULL,
  PRIMARY KEY (currency, chain)
);
CREATE TABLE IF NOT EXISTS currency_pairs (
  id TEXT PRIMARY KEY, base TEXT NOT NULL, quote TEXT NOT NULL,
  amount_precision INTEGER NOT NULL, precision INTEGER NOT NULL, min_base TEXT NOT NULL, min_quote TEXT NOT NULL
);

-- Withdrawals: the wire id is 'w' || seq. next_at is when the life cycle moves it next (NULL: it waits).
CREATE TABLE IF NOT EXISTS withdrawals (
  seq INTEGER PRIMARY KEY,
  uid TEXT NOT NULL,
  withdraw_order_id TEXT NOT NULL DEFAULT '',
  currency TEXT NOT NULL,
  chain TEXT NOT NULL,
  address TEXT NOT NULL,
  memo TEXT NOT NULL DEFAULT '',
  amount TEXT NOT NULL,
  fee TEXT NOT NULL,
  status TEXT NOT NULL,
  type TEXT NOT NULL,                      -- 'withdraw' (on-chain) or 'internal'
  route TEXT NOT NULL DEFAULT 'direct',    -- direct | review | manual | internal
  outcome TEXT NOT NULL DEFAULT 'done',    -- done | fail | reject
  receiver_uid TEXT,                       -- internal withdrawals: the Sandbox account credited
  asset_class TEXT NOT NULL DEFAULT '',
  txid TEXT NOT NULL DEFAULT '',
  block_number TEXT NOT NULL DEFAULT '',
  fail_reason TEXT NOT NULL DEFAULT '',
  timestamp INTEGER NOT NULL,
  timestamp2 INTEGER,
  next_at REAL
);
CREATE INDEX IF NOT EXISTS withdrawals_uid_ts ON withdrawals(uid, timestamp);
CREATE INDEX IF NOT EXISTS withdrawals_uid_woid ON withdrawals(uid, withdraw_order_id);
-- A day's first daily-limit sum (ledger/withdrawals.ts usedToday) reads this index only, never the table.
CREATE INDEX IF NOT EXISTS withdrawals_day ON withdrawals(uid, currency, timestamp, status, amount);
CREATE INDEX IF NOT EXISTS withdrawals_next ON withdrawals(next_at) WHERE next_at IS NOT NULL;
-- Each account's withdrawals of a currency on a UTC day (day: its first second) that were not returned,
-- summed (ledger/withdrawals.ts usedToday): the daily-limit check reads one row, not the day's withdrawals.
CREATE TABLE IF NOT EXISTS withdrawal_days (
  uid TEXT NOT NULL, currency TEXT NOT NULL, day INTEGER NOT NULL, used TEXT NOT NULL,
  PRIMARY KEY (uid, currency, day)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS deposits (
  seq INTEGER PRIMARY KEY,
  uid TEXT NOT NULL,
  currency TEXT NOT NULL,
  chain TEXT NOT NULL,
  address TEXT NOT NULL,
  memo TEXT NOT NULL DEFAULT '',
  amount TEXT NOT NULL,
  txid TEXT NOT NULL,
  status TEXT NOT NULL,
  timestamp INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS deposits_uid_ts ON deposits(uid, timestamp);

-- Transfers between accounts of one main account: kind own (POST /wallet/transfers), main_sub, sub_sub.
CREATE TABLE IF NOT EXISTS transfers (
  tx_id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  main_uid TEXT NOT NULL,
  from_uid TEXT NOT NULL,
  from_type TEXT NOT NULL,
  to_uid TEXT NOT NULL,
  to_type TEXT NOT NULL,
  sub_account TEXT NOT NULL DEFAULT '',
  sub_account_type TEXT NOT NULL DEFAULT '',
  direction TEXT NOT NULL DEFAULT '',
  currency TEXT NOT NULL,
  amount TEXT NOT NULL,
  source TEXT NOT NULL DEFAULT 'api',
  client_order_id TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  timest INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS transfers_main_kind_ts ON transfers(main_uid, kind, timest);
CREATE UNIQUE INDEX IF NOT EXISTS transfers_coid ON transfers(main_uid, client_order_id) WHERE client_order_id != '';

CREATE TABLE IF NOT EXISTS uid_transfers (
  id INTEGER PRIMARY KEY,
  push_uid TEXT NOT NULL,
  receive_uid TEXT NOT NULL,
  currency TEXT NOT NULL,
  amount TEXT NOT NULL,
  create_time INTEGER NOT NULL,
  status TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS uid_transfers_push ON uid_transfers(push_uid, create_time);
CREATE INDEX IF NOT EXISTS uid_transfers_recv ON uid_transfers(receive_uid, create_time);

CREATE TABLE IF NOT EXISTS saved_addresses (
  uid TEXT NOT NULL, currency TEXT NOT NULL, chain TEXT NOT NULL, address TEXT NOT NULL,
  name TEXT NOT NULL, tag TEXT NOT NULL DEFAULT '', verified TEXT NOT NULL, ord INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS saved_addresses_uid ON saved_addresses(uid, currency);

-- Addresses the Sandbox issued; a withdrawal to one of them is internal (§4.2).
CREATE TABLE IF NOT EXISTS deposit_addresses (
  uid TEXT NOT NULL, currency TEXT NOT NULL, chain TEXT NOT NULL, address TEXT NOT NULL, payment_id TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (uid, currency, chain)
);
CREATE INDEX IF NOT EXISTS deposit_addresses_addr ON deposit_addresses(chain, address, payment_id);

CREATE TABLE IF NOT EXISTS small_balance_history (
  id INTEGER PRIMARY KEY, uid TEXT NOT NULL, currency TEXT NOT NULL, amount TEXT NOT NULL, gt_amount TEXT NOT NULL,
  create_time INTEGER NOT NULL
);

-- Spot orders (simulator/market). Amounts are decimal strings; \`locked\` is what the order still holds
-- locked in its account (released when it leaves the book). Open orders are loaded into the book on start.
CREATE TABLE IF NOT EXISTS spot_orders (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL,
  text TEXT NOT NULL,
  pair TEXT NOT NULL,
  type TEXT NOT NULL,
  account TEXT NOT NULL,
  side TEXT NOT NULL,
  amount TEXT NOT NULL,
  price TEXT NOT NULL,
  tif TEXT NOT NULL,
  left_amount TEXT NOT NULL,
  filled_amount TEXT NOT NULL,
  filled_total TEXT NOT NULL,
  fee TEXT NOT NULL,
  fee_currency TEXT NOT NULL,
  locked TEXT NOT NULL,
  stp_id INTEGER NOT NULL,
  stp_act TEXT NOT NULL,
  status TEXT NOT NULL,
  finish_as TEXT NOT NULL,
  create_ms INTEGER NOT NULL,
  update_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS spot_orders_uid ON spot_orders(uid, pair, status, id);
-- Only custom ids ("t-…", §8.5) are looked up by text (routes/orders.ts findOrder): the default "apiv4"
-- of most orders stays out of the index, which every placement and fill would otherwise rewrite.
DROP INDEX IF EXISTS spot_orders_text;
CREATE INDEX IF NOT EXISTS spot_orders_custom_text ON spot_orders(uid, text, id) WHERE text GLOB 't-*';
-- One row per side of each trade (GET /spot/my_trades reads the owner's rows).
CREATE TABLE IF NOT EXISTS spot_fills (
  id INTEGER PRIMARY KEY,
  trade_id INTEGER NOT NULL,
  uid TEXT NOT NULL,
  order_id INTEGER NOT NULL,
  pair TEXT NOT NULL,
  side TEXT NOT NULL,
  role TEXT NOT NULL,
  amount TEXT NOT NULL,
  price TEXT NOT NULL,
  fee TEXT NOT NULL,
  fee_currency TEXT NOT NULL,
  text TEXT NOT NULL,
  ts_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS spot_fills_uid ON spot_fills(uid, pair, id);
-- The tickers' rolling 24-hour window (market/window24h.ts), which counts each trade by its taker's row.
DROP INDEX IF EXISTS spot_fills_pair_ts;
CREATE INDEX IF NOT EXISTS spot_fills_taker_ts ON spot_fills(pair, ts_ms) WHERE role = 'taker';
-- Last trade price per pair (tickers), and self-trade prevention groups (§3.5; set by the admin API).
CREATE TABLE IF NOT EXISTS pair_last (pair TEXT PRIMARY KEY, price TEXT NOT NULL, ts_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS stp_members (uid TEXT PRIMARY KEY, stp_id INTEGER NOT NULL);

-- Sub-account management (§4.4): what the live SubAccount and SubAccountKey models carry beyond the
-- accounts and api_keys rows. A key without a row is a seeded one: mode 1, state 1, made with its account.
CREATE TABLE IF NOT EXISTS sub_account_profiles (uid TEXT PRIMARY KEY, remark TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS api_key_states (
  key TEXT PRIMARY KEY,
  mode INTEGER NOT NULL DEFAULT 1,         -- 1 classic, 2 portfolio (SubAccountKey.mode)
  state INTEGER NOT NULL DEFAULT 1,        -- 1 normal, 2 locked, 3 frozen; only 1 signs
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Every balance change after seeding, one row per account touched; ref names the record that caused it.
-- Spot orders and trades are journalled in spot_orders and spot_fills instead.
CREATE TABLE IF NOT EXISTS ledger_entries (
  id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, uid TEXT NOT NULL, account_type TEXT NOT NULL, sub_key TEXT NOT NULL,
  currency TEXT NOT NULL, delta TEXT NOT NULL, kind TEXT NOT NULL, ref TEXT NOT NULL
);
-- GET /spot/account_book reads one account's entries from a time on (ledger/accountBook.ts).
CREATE INDEX IF NOT EXISTS ledger_entries_account ON ledger_entries(uid, account_type, ts);
`;

/**
 * Only the operator's account may read the Sandbox's store (it holds the Sandbox's keys): the folder is
 * 0700 and sandbox.sqlite 0600 before SQLite opens it, so that its -wal and -shm files, which SQLite
 * creates with the database file's mode, are 0600 too.
 */
function privateStore(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'sandbox.sqlite');
  if (process.platform === 'win32') return file;
  chmodSync(dataDir, 0o700);
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) if (existsSync(f)) chmodSync(f, 0o600);
  return file;
}

/**
 * The store's page cache, in KiB (SQLite's own default). better-sqlite3 builds SQLite with 16 MB, which
 * a Sandbox under load fills as its records grow and keeps for its life: the sandbox benchmark's mixed load grew by
 * 16 MB that way over 5 minutes, with the V8 heap flat. The store is a local file the OS caches anyway; what
 * the Sandbox reads again and again (accounts, balances, keys, the newest records) fits in 2 MB.
 */
export const PAGE_CACHE_KIB = 2000;

export function openDb(dataDir: string): DB {
  const db = new Database(privateStore(dataDir), sqliteOptions());
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Savepoints (every order is one, inside the open group commit) keep the pages they change in a
  // sub-journal, which SQLite spills to a temporary file past 64 KiB and then writes page by page,
  // two pwrite calls per page, for the rest of the connection's life: a dozen system calls per order.
  // In memory, a sub-journal is a few pages, dropped when its savepoint is released.
  db.pragma('temp_store = MEMORY');
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  db.exec(SCHEMA);
  return db;
}

const cache = new WeakMap<DB, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per database: handlers run thousands of times per second. */
export function stmt(db: DB, sql: string): Database.Statement {
  let m = cache.get(db);
  if (!m) cache.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

/** What waits for the open group-commit batch of each store (inBatch): answers that must not leave before it. */
const waiting = new WeakMap<DB, Array<() => void>>();

/**
 * The most answers a batch keeps waiting before it commits, however fast requests keep coming: at the
 * Sandbox's ~30 µs an order, about 2 ms more for the first of them.
 */
export const BATCH_CAP = 64;

/**
 * Group commit for the spot market's writes: `tx` runs inside a transaction that stays open while
 * requests keep arriving, so the orders that arrive together share one commit. The market holds its
 * rows and balance changes back until then (holdWrites) and writes each once; anything else that uses
 * the store first makes them (writeHeld). Answers wait for the commit (afterCommit), and close()
 * commits what is pending.
 *
 * The batch commits at the end of the first turn of the event loop that brought it no new answer, or
 * once it holds BATCH_CAP. It never waits for input: the pending immediate keeps the loop's poll from
 * blocking, so an order on a quiet Sandbox commits one turn later. Under load, the clients answered by
 * one commit reply while the next batch runs; committing at the end of the turn that read them split 50
 * clients into batches of ~35, waiting for the turn after gathers ~49, and each commit's fixed share
 * (its WAL frames, the B-trees' rightmost pages, the answers' wake-ups) is spread over more orders.
 */
export function inBatch<A extends unknown[], T>(db: DB, tx: (...args: A) => T, ...args: A): T {
  if (!db.inTransaction) {
    db.exec('BEGIN IMMEDIATE');
    const answers: Array<() => void> = [];
    waiting.set(db, answers);
    let seen = 0;
    const settle = (): void => {
      // Committed meanwhile (close, or a test): a later batch keeps its own timer.
      if (waiting.get(db) !== answers) return;
      if (answers.length > seen && answers.length < BATCH_CAP) {
        seen = answers.length;
        setImmediate(settle);
      } else commitBatch(db);
    };
    setImmediate(settle);
  }
  return tx(...args);
}

/** What the open batch of each store holds back (the spot market's rows and balance changes), in order. */
const held = new WeakMap<DB, Array<() => void>>();

/** Registers writes the open batch holds back; writeHeld makes them, in the order they were registered. */
function holdWrites(db: DB, write: () => void): void {
  const list = held.get(db);
  if (list) list.push(write);
  else held.set(db, [write]);
}

/**
 * The open batch's held writes of one kind (`kind` keys them per store): made by `make` at the batch's
 * first use, written by writeHeld (the commit, or whatever uses the store first), then forgotten.
 */
export function heldIn<T extends { write(): void }>(kind: WeakMap<DB, T>, db: DB, make: (db: DB) => T): T {
  let h = kind.get(db);
  if (!h) {
    const made = make(db);
    kind.set(db, (h = made));
    holdWrites(db, () => {
      kind.delete(db);
      made.write();
    });
  }
  return h;
}

/**
 * Makes the writes the open batch holds back. The batch's commit does, and so does everything but the
 * market's placements before it uses the store (server.ts before a handler, the admin API, the
 * withdrawal life cycle, a market loaded from the store), so that no reader ever misses a batch's orders.
 */
export function writeHeld(db: DB): void {
  const list = held.get(db);
  if (!list) return;
  held.delete(db);
  for (const write of list) write();
}

/**
 * Runs `send` once the open batch has committed, at once when none is open: no answer tells of a
 * write (or of a read that saw one) that a crash could still undo. The answers of a batch then leave
 * together, which also spares the machine a wake-up of each waiting client per answer.
 */
export function afterCommit(db: DB, send: () => void): void {
  const queue = waiting.get(db);
  if (queue) queue.push(send);
  else send();
}

/**
 * Commits an open batch (inBatch) and sends the answers that waited for it; nothing when none is
 * open. A failing commit throws out of the timer and stops the Sandbox before any of them is sent:
 * the store rolled back, and those answers must not be trusted.
 */
export function commitBatch(db: DB): void {
  if (db.open && db.inTransaction) {
    writeHeld(db);
    db.exec('COMMIT');
  }
  const queue = waiting.get(db);
  if (!queue) return;
  waiting.delete(db);
  for (const send of queue) send();
}

export function getMeta(db: DB, k: string): string | undefined {
  const row = stmt(db, 'SELECT v FROM meta WHERE k = ?').get(k) as { v: string } | undefined;
  return row?.v;
}

export function setMeta(db: DB, k: string, v: string): void {
  stmt(db, 'INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v').run(k, v);
}
