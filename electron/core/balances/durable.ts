import type Database from 'better-sqlite3';

// The balances store is mostly a cache (snapshots for the chart, the last answers and the last load for the
// next start's first paint), written at every refresh on the core's only thread, while the window may be
// asking for its pages. Those commits need not wait for the disk: in WAL mode, synchronous NORMAL keeps the
// file consistent through any crash and loses at most the last commits to a power cut, a snapshot or a
// cached answer the next refresh writes again (docs/performance.md §Opening the desk). What an operator sets (the alert settings, a
// floor, a risk threshold, an acknowledgement) is theirs, not the exchange's to give back, so it reaches
// the disk before the call returns. SQLite's default here is FULL for both.

/** Opens the store's connection to commit without waiting for the disk (see above). */
export function cacheDurability(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
}

/** Runs `write` as one transaction that is on disk when this returns; the connection goes back to NORMAL after. */
export function durably<T>(db: Database.Database, write: () => T): T {
  db.pragma('synchronous = FULL');
  try {
    return db.transaction(write)();
  } finally {
    db.pragma('synchronous = NORMAL');
  }
}
