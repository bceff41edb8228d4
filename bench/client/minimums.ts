import { thirtyDayWindows, type TimeWindow } from '../../electron/core/sync/windows.ts';
import type { SandboxAdmin } from './admin.ts';

// The fewest requests any client can make for each task (docs/benchmarks.md §client), from the
// Sandbox's own record counts, never from what a client fetched. A list is read until a page comes back
// shorter than `limit`, so n records need floor(n / limit) + 1 requests.

const DAY = 86_400;

export function pagesFor(n: number, limit: number): number {
  return Math.floor(n / limit) + 1;
}

export interface RefreshMinimum {
  from: number;
  to: number;
  subAccounts: number;
  withdrawals: number;
  deposits: number;
  requests: number;
}

/** total balance + spot sub-account pages (100 each) + 3 all-at-once reads + 30 days of withdrawals (1000) and deposits (500). */
export async function refreshMinimum(admin: SandboxAdmin, uid: string, nowSec: number): Promise<RefreshMinimum> {
  const from = nowSec - 30 * DAY;
  const c = await admin.counts(uid, from, nowSec);
  const requests = 1 + pagesFor(c.sub_accounts, 100) + 3 + pagesFor(c.withdrawals, 1000) + pagesFor(c.deposits, 500);
  return { from, to: nowSec, subAccounts: c.sub_accounts, withdrawals: c.withdrawals, deposits: c.deposits, requests };
}

export interface HistoryMinimum {
  from: number;
  to: number;
  windows: Array<TimeWindow & { n: number }>;
  /** Withdrawals of the whole range (a record on a shared window boundary counts once here). */
  total: number;
  requests: number;
}

/** The year's withdrawals in the desk's 30-day windows: the sum over windows of floor(n / 1000) + 1. */
export async function historyMinimum(admin: SandboxAdmin, uid: string, nowSec: number): Promise<HistoryMinimum> {
  const from = nowSec - 365 * DAY;
  const windows: HistoryMinimum['windows'] = [];
  for (const w of thirtyDayWindows(from, nowSec)) windows.push({ ...w, n: (await admin.counts(uid, w.from, w.to)).withdrawals });
  const total = (await admin.counts(uid, from, nowSec)).withdrawals;
  return { from, to: nowSec, windows, total, requests: windows.reduce((s, w) => s + pagesFor(w.n, 1000), 0) };
}
