import { HistoryExchange } from './historyExchange.ts';

const DAY = 86_400;

/** The same exchange in the parent and the child: a year of records placed deterministically. */
export function crashWorld(): HistoryExchange & { now: number } {
  const ex = new HistoryExchange() as HistoryExchange & { now: number };
  ex.now = 1_767_225_600;
  ex.spread('withdrawals', ex.now - 365 * DAY, ex.now, 6_000);
  ex.spread('deposits', ex.now - 365 * DAY, ex.now, 2_000);
  return ex;
}
