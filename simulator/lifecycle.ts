import type { Clock } from './clock.ts';
import { stmt, writeHeld, type DB } from './db.ts';
import { ApiError } from './errors.ts';
import { autoNext, enterStatus, parseWithdrawalId, withdrawalRecord, type WithdrawalRow } from './ledger/withdrawals.ts';
import type { SandboxOptions } from './options.ts';

// Moves withdrawals along their life cycle (see ledger/withdrawals.ts) on the Sandbox's clock, so that
// advancing the clock through the admin API moves them as if the time had passed.

const TICK_MS = 250;
const BATCH = 500;

/** One pass: every withdrawal whose time has come moves one step. Returns how many moved. */
export function lifecycleTick(db: DB, nowSec: number, speed: number): number {
  writeHeld(db);
  const due = stmt(db, 'SELECT * FROM withdrawals WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at LIMIT ?').all(
    nowSec,
    BATCH,
  ) as WithdrawalRow[];
  let moved = 0;
  for (const w of due) {
    const next = autoNext(w);
    if (next === null) {
      stmt(db, 'UPDATE withdrawals SET next_at = NULL WHERE seq = ?').run(w.seq);
      continue;
    }
    try {
      enterStatus(db, w.seq, next, nowSec, speed);
      moved++;
    } catch (e) {
      // A step that cannot happen (say, a refund the books refuse) parks the withdrawal for the admin API.
      stmt(db, 'UPDATE withdrawals SET next_at = NULL WHERE seq = ?').run(w.seq);
      if (!(e instanceof ApiError)) throw e;
    }
  }
  return moved;
}

/** Starts the timer that moves withdrawals along at options.speed (0: frozen); returns a stop function. */
export function startLifecycle(db: DB, clock: Clock, options: SandboxOptions): () => void {
  if (options.speed <= 0) return () => {};
  const timer = setInterval(() => {
    if (!db.open) return;
    lifecycleTick(db, clock.now(), options.speed);
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The admin API's move: one withdrawal to a given §3.1 list status, with that status's effects. */
export function moveWithdrawal(db: DB, id: string, status: string, nowSec: number, speed: number) {
  const seq = parseWithdrawalId(id);
  if (seq === null) throw new ApiError('INVALID_WITHDRAW_ID', `not a withdrawal id: ${id}`);
  return withdrawalRecord(enterStatus(db, seq, status, nowSec, speed));
}
