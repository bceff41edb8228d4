import { SpotOrder } from '../../../shared/api/orders.ts';
import { pagesByNumber, type RecordReader } from '../client/pagination.ts';
import { thirtyDayWindows } from '../sync/windows.ts';
import type { Finding } from './finding.ts';

// Spot orders carry the desk's id in their text (§2.10), and the exchange lists them per pair and per
// key only: the open orders, and the finished ones by time range (read in the same 30-day windows as the
// wallet's lists, since the live service caps that range too).

/** The desk's orders of one pair (every text; the caller keeps the desk's) placed in [from, to]. */
export async function findDeskOrders(
  client: RecordReader,
  pair: string,
  account: string | undefined,
  from: number,
  to: number,
): Promise<Finding[]> {
  const acct: Array<[string, string]> = account ? [['account', account]] : [];
  const out: Finding[] = [];
  const seen = new Set<string>();
  const take = (o: SpotOrder): void => {
    if (seen.has(o.id) || !o.text) return;
    seen.add(o.id);
    out.push({ kind: 'spot_order', id: o.text, amount: o.amount, currency: o.currency_pair, at: Number(o.create_time) });
  };
  const read = (query: Array<[string, string]>, limit: number) =>
    pagesByNumber(client, {
      path: '/spot/orders',
      record: SpotOrder,
      query: [['currency_pair', pair], ...acct, ...query],
      limit,
      priority: 'visible',
    });
  for await (const page of read([['status', 'open']], 100)) page.forEach(take);
  for (const w of thirtyDayWindows(from, to)) {
    for await (const page of read(
      [
        ['status', 'finished'],
        ['from', String(w.from)],
        ['to', String(w.to)],
      ],
      1000,
    ))
      page.forEach(take);
  }
  return out;
}
