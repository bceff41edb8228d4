import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type DB = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  uid TEXT PRIMARY KEY,
  main_uid TEXT,               -- NULL for a main account
  name TEXT NOT NULL,
  locked INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
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
-- Valuation prices in USDT, used by total_balance.
CREATE TABLE IF NOT EXISTS prices (currency TEXT PRIMARY KEY, usdt TEXT NOT NULL);
`;

export function openDb(dataDir: string): DB {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'sandbox.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  return db;
}

export function getMeta(db: DB, k: string): string | undefined {
  const row = db.prepare('SELECT v FROM meta WHERE k = ?').get(k) as { v: string } | undefined;
  return row?.v;
}

export function setMeta(db: DB, k: string, v: string): void {
  db.prepare('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v').run(k, v);
}
