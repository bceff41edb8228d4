// A stand-in exchange for the history reads, answering from records the test made, with the rules of
// §4.1 and §8.1: `from`/`to` required here (the desk always sends them), at most 30 days apart, limits
// at most 1000 (deposits 500; sub-account balances 100), newest first, offset and page paging. It counts
// every request so tests can hold the client to the minimum.

import { ApiClient } from '../../client/client.ts';

export interface Rec {
  id: string;
  timestamp: string;
  status: string;
  amount: string;
  currency: string;
  chain: string;
  fee?: string;
  address?: string;
}

export interface Seen {
  path: string;
  query: URLSearchParams;
}

const DAY = 86_400;

function json(status: number, body: unknown): Response {
  const text = JSON.stringify(body);
  return { ok: status < 300, status, headers: new Headers(), text: async () => text } as unknown as Response;
}

export class HistoryExchange {
  withdrawals: Rec[] = [];
  deposits: Rec[] = [];
  subUids: string[] = [];
  readonly seen: Seen[] = [];
  private nextId = 1;

  add(kind: 'withdrawals' | 'deposits', timestamp: number, status = 'DONE'): Rec {
    const r: Rec = {
      id: `${kind === 'withdrawals' ? 'w' : 'd'}${this.nextId++}`,
      timestamp: String(timestamp),
      status,
      amount: '1',
      currency: 'USDT',
      chain: 'TRX',
      ...(kind === 'withdrawals' ? { fee: '0.1', address: 'TXYZ' } : {}),
    };
    this[kind].push(r);
    return r;
  }

  /** `n` records spread evenly over [from, to). */
  spread(kind: 'withdrawals' | 'deposits', from: number, to: number, n: number, status = 'DONE'): void {
    for (let i = 0; i < n; i++) this.add(kind, Math.floor(from + ((to - from) * i) / n), status);
  }

  requests(path?: string): number {
    return path ? this.seen.filter((s) => s.path === path).length : this.seen.length;
  }

  readonly fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    const path = url.pathname.replace(/^\/api\/v4/, '');
    const q = url.searchParams;
    this.seen.push({ path, query: q });
    const int = (name: string, dflt: number): number => (q.has(name) ? Number(q.get(name)) : dflt);
    if (path === '/wallet/sub_account_balances') {
      const limit = int('limit', 20);
      if (limit > 100) return json(400, { label: 'INVALID_PARAM_VALUE', message: 'limit' });
      const page = int('page', 1);
      return json(
        200,
        this.subUids.slice((page - 1) * limit, page * limit).map((uid) => ({ uid, available: { USDT: '1' }, locking: {} })),
      );
    }
    const list = path === '/wallet/withdrawals' ? this.withdrawals : path === '/wallet/deposits' ? this.deposits : undefined;
    if (!list) return json(404, { label: 'NOT_FOUND', message: path });
    if (q.has('withdraw_id'))
      return json(
        200,
        list.filter((r) => r.id === q.get('withdraw_id')),
      );
    const max = path === '/wallet/deposits' ? 500 : 1000;
    const limit = int('limit', 100);
    const offset = int('offset', 0);
    if (!q.has('from') || !q.has('to')) return json(400, { label: 'MISSING_REQUIRED_PARAM', message: 'from/to' });
    const from = int('from', 0);
    const to = int('to', 0);
    if (limit < 1 || limit > max) return json(400, { label: 'INVALID_PARAM_VALUE', message: `limit above ${max}` });
    if (to - from > 30 * DAY || to < from) return json(400, { label: 'INVALID_PARAM_VALUE', message: 'range over 30 days' });
    const rows = list
      .filter((r) => Number(r.timestamp) >= from && Number(r.timestamp) <= to)
      .sort((a, b) => Number(b.timestamp) - Number(a.timestamp) || (a.id < b.id ? 1 : -1));
    return json(200, rows.slice(offset, offset + limit));
  }) as typeof fetch;
}

/** A real client over the stand-in exchange, its limits off. */
export function historyClient(ex: HistoryExchange): ApiClient {
  return new ApiClient({
    baseUrl: 'https://exchange.test/api/v4',
    credentials: { key: 'k', secret: 's' },
    fetch: ex.fetch,
    limitsOff: true,
  });
}

/** Everything an async iterator yields, in order. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
