import { z } from 'zod';
import { ORDER_TEXT_LOOKUP_SEC, SpotOrder, SpotTrade } from '../../../shared/api/orders.ts';
import type { IntentView } from '../journal/intents.ts';
import { unknownFrom, type HttpRequest, type Lookup, type WriteClient } from './lookups.ts';
import { isNotFound } from './outcome.ts';

// Did a spot order land? Its only handle is the `text` the desk gave it (§2.10). The exchange answers
// GET /spot/orders/{text} for 30 minutes after creation only, and a reading of "not found" by text
// alone would not survive a clock or a window misjudged, so the desk also searches the open orders,
// the finished orders and the trades since the order was created for that text. Absent means absent
// in every one of them; a question that fails proves nothing.

/** Pages read per list before the desk gives up proving absence (then an operator decides). */
export const MAX_PAGES = 10;
/** Margin for the desk's and the exchange's clocks around the order's creation. */
const SKEW_S = 600;
/** The by-text lookup is tried only well inside the 30 minutes, so that a reply near the edge is not misread. */
const TEXT_WINDOW_MARGIN_S = 120;

interface Seen {
  id: string;
  status?: string;
  where: string;
}

async function pages<T>(
  client: WriteClient,
  req: (page: number) => HttpRequest,
  schema: z.ZodType<T[]>,
  limit: number,
  onRow: (r: T) => void,
): Promise<boolean> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const rows = await client.request(req(page), schema);
    rows.forEach(onRow);
    if (rows.length < limit) return true;
  }
  return false;
}

export async function lookupSpotOrder(client: WriteClient, v: IntentView, nowMs: number): Promise<Lookup> {
  const text = v.client_id!;
  const pair = String(v.body.currency_pair);
  const account: Array<[string, string]> = v.body.account ? [['account', String(v.body.account)]] : [];
  const from = String(Math.floor(v.created_at / 1000) - SKEW_S);
  const seen = new Map<string, Seen>();
  const note = (id: string, where: string, status?: string): void => {
    const had = seen.get(id);
    if (!had) seen.set(id, { id, where, ...(status !== undefined ? { status } : {}) });
    else if (had.status === undefined && status !== undefined) had.status = status;
  };
  let complete = true;
  try {
    if (nowMs - v.created_at < (ORDER_TEXT_LOOKUP_SEC - TEXT_WINDOW_MARGIN_S) * 1000) {
      try {
        const o = await client.request(
          {
            method: 'GET',
            path: `/spot/orders/${encodeURIComponent(text)}`,
            query: [['currency_pair', pair], ...account],
            priority: 'action',
          },
          SpotOrder,
        );
        // An exchange that answered with another order must not make it look like ours.
        if (o.text === text) note(o.id, 'by its text', o.status);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    const list =
      (status: 'open' | 'finished', limit: number) =>
      (page: number): HttpRequest => ({
        method: 'GET',
        path: '/spot/orders',
        priority: 'action',
        query: [
          ['currency_pair', pair],
          ['status', status],
          ...account,
          ...(status === 'finished' ? [['from', from] as [string, string]] : []),
          ['limit', String(limit)],
          ['page', String(page)],
        ],
      });
    const onOrder =
      (where: string) =>
      (o: SpotOrder): void => {
        if (o.text === text) note(o.id, where, o.status);
      };
    complete = (await pages(client, list('open', 100), z.array(SpotOrder), 100, onOrder('among the open orders'))) && complete;
    complete = (await pages(client, list('finished', 1000), z.array(SpotOrder), 1000, onOrder('among the finished orders'))) && complete;
    complete =
      (await pages(
        client,
        (page) => ({
          method: 'GET',
          path: '/spot/my_trades',
          priority: 'action',
          query: [['currency_pair', pair], ...account, ['from', from], ['limit', '1000'], ['page', String(page)]],
        }),
        z.array(SpotTrade),
        1000,
        (t) => {
          if (t.text === text) note(t.order_id, 'among the trades');
        },
      )) && complete;
  } catch (e) {
    return unknownFrom(e);
  }
  if (seen.size > 0) {
    const first = [...seen.values()][0]!;
    return { kind: 'found', copies: seen.size, exchange_id: first.id, ...(first.status !== undefined ? { status: first.status } : {}) };
  }
  if (!complete) {
    return {
      kind: 'unknown',
      impossible: true,
      reason: `more than ${MAX_PAGES} pages of ${pair} orders or trades since it was created: the desk cannot search them all, so it cannot prove the order absent`,
    };
  }
  return { kind: 'absent' };
}

/**
 * A cancellation took effect when its order is no longer open. A filled order cannot be cancelled any
 * more: found with status `closed`, which the executor reports as refused.
 */
export async function lookupCancel(client: WriteClient, v: IntentView): Promise<Lookup> {
  const pair = String(v.body.currency_pair);
  const account: Array<[string, string]> = v.body.account ? [['account', String(v.body.account)]] : [];
  if (v.kind === 'spot_cancel') {
    try {
      const o = await client.request(
        {
          method: 'GET',
          path: `/spot/orders/${encodeURIComponent(String(v.body.order_id))}`,
          query: [['currency_pair', pair], ...account],
          priority: 'action',
        },
        SpotOrder,
      );
      return o.status === 'open' ? { kind: 'absent' } : { kind: 'found', copies: 1, exchange_id: o.id, status: o.status };
    } catch (e) {
      return unknownFrom(e);
    }
  }
  try {
    let open = 0;
    const complete = await pages(
      client,
      (page) => ({
        method: 'GET',
        path: '/spot/orders',
        priority: 'action',
        query: [
          ['currency_pair', pair],
          ['status', 'open'],
          ...account,
          ...(v.body.side ? [['side', String(v.body.side)] as [string, string]] : []),
          ['limit', '100'],
          ['page', String(page)],
        ],
      }),
      z.array(SpotOrder),
      100,
      () => {
        open++;
      },
    );
    if (open > 0 || !complete) return { kind: 'absent' };
    return { kind: 'found', copies: 1, status: 'cancelled' };
  } catch (e) {
    return unknownFrom(e);
  }
}
