import type { z } from 'zod';
import { listOf, TransferOrderStatus, UidTransfer, Withdrawal } from '../../../shared/api/records.ts';
import { Dec } from '../../../shared/money.ts';
import type { IntentView } from '../journal/intents.ts';
import { classifyFailure, isNotFound } from './outcome.ts';

// Asking the exchange whether a write landed. Each answer is one of: found (with what the exchange
// holds), absent (the exchange says it has no such write), or unknown (the question itself failed; it
// proves nothing and never counts toward a resend).

/** One HTTP request to the exchange: a write's POST or a lookup's GET. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: ReadonlyArray<readonly [string, string]>;
  body?: unknown;
  /** For the client's scheduler: writes and their lookups are a person's action. */
  priority?: 'action';
  /** A write's deadline (local epoch ms): aborted at it, never sent after it (client.ts ApiRequest). */
  deadline?: number;
  /** Why the write must not leave now, asked as it leaves the queue (client.ts ApiRequest). */
  heldBy?: () => string | null;
}

/** The part of the core's client the writes use (electron/core/client's ApiClient fits it). */
export interface WriteClient {
  /** Sends `req`; the answer is checked against `schema` before it is returned. */
  request<S extends z.ZodType>(req: HttpRequest, schema: S): Promise<z.output<S>>;
}

export interface Found {
  kind: 'found';
  exchange_id?: string;
  status?: string;
  /** More than one record answered for one id: the write was applied more than once. */
  copies: number;
  /** Where the exchange lets each be told apart (withdrawals): every record, the earliest first. */
  records?: Array<{ id: string; status: string; timestamp: string }>;
}
/**
 * `impossible`: the question can never be answered (say, more records to search than the desk reads):
 * the write then waits for an operator instead of being asked about again.
 */
export type Lookup = Found | { kind: 'absent' } | { kind: 'unknown'; reason: string; refusedLabel?: string; impossible?: true };

const DAY_S = 86_400;

export function unknownFrom(e: unknown): Lookup {
  const f = classifyFailure(e);
  if (f.kind === 'refused') return { kind: 'unknown', reason: f.message, refusedLabel: f.label };
  if (f.kind === 'not_sent') return { kind: 'unknown', reason: f.reason };
  return { kind: 'unknown', reason: f.reason };
}

/**
 * §4.1: with withdraw_order_id set "only that record is queried". Whether the default 7-day window still
 * applies is not shown, so an intent older than 6 days (a day of margin for clock skew) is asked about
 * with an explicit window starting an hour before it was created (the 30-day maximum is plenty: a
 * request does not land weeks after it left). Younger ones send no window, so the exchange's own clock
 * decides "now": a desk clock running behind can never hide a fresh record.
 */
export function withdrawalLookupQuery(v: IntentView, nowMs: number): Array<[string, string]> {
  const q: Array<[string, string]> = [['withdraw_order_id', v.client_id!]];
  if (nowMs - v.created_at > 6 * DAY_S * 1000) {
    const from = Math.floor(v.created_at / 1000) - 3600;
    const to = Math.min(from + 30 * DAY_S - 60, Math.floor(nowMs / 1000));
    q.push(['from', String(from)], ['to', String(to)]);
  }
  return q;
}

export async function lookupWithdrawal(client: WriteClient, v: IntentView, nowMs: number): Promise<Lookup> {
  let answer: Withdrawal[];
  try {
    answer = await client.request(
      { method: 'GET', path: '/wallet/withdrawals', query: withdrawalLookupQuery(v, nowMs), priority: 'action' },
      listOf(Withdrawal),
    );
  } catch (e) {
    return unknownFrom(e);
  }
  // Filter again here: an exchange that ignored the filter must not make another record look like ours.
  const mine = answer.filter((r) => r.withdraw_order_id === v.client_id);
  if (mine.length === 0) return { kind: 'absent' };
  // The earliest is the write itself; any later one is a copy (duplicates.ts).
  mine.sort((a, b) => Number(a.timestamp) - Number(b.timestamp) || a.id.localeCompare(b.id));
  const first = mine[0]!;
  return {
    kind: 'found',
    copies: mine.length,
    exchange_id: first.id,
    status: first.status,
    records: mine.map((r) => ({ id: r.id, status: r.status, timestamp: String(r.timestamp) })),
  };
}

export async function lookupTransfer(client: WriteClient, v: IntentView): Promise<Lookup> {
  try {
    const r = await client.request(
      {
        method: 'GET',
        path: '/wallet/order_status',
        query: [['client_order_id', v.client_id!]],
        priority: 'action',
      },
      TransferOrderStatus,
    );
    return { kind: 'found', copies: 1, exchange_id: String(r.tx_id), status: r.status };
  } catch (e) {
    if (isNotFound(e)) return { kind: 'absent' };
    return unknownFrom(e);
  }
}

/**
 * UID transfers carry no id, so the only evidence is GET /wallet/push: an outgoing record to the same
 * user, currency and amount, created after the request left (minus a skew margin), that no other intent
 * of the journal already claims. Exactly one such record counts as found; none counts as absent; more
 * than one cannot be told apart and is reported as several copies.
 */
export async function reconcileUidTransfer(
  client: WriteClient,
  v: IntentView,
  claimed: ReadonlySet<string>,
  nowMs: number,
): Promise<Lookup> {
  const sentAt = Math.floor((v.last_sent_at ?? v.created_at) / 1000);
  const from = Math.floor(v.created_at / 1000) - 300;
  // `to` defaults to the exchange's "now"; it is sent only when the 30-day maximum needs it.
  const window: Array<[string, string]> = [['from', String(from)]];
  if (nowMs / 1000 - from > 29 * DAY_S) window.push(['to', String(from + 30 * DAY_S - 60)]);
  const limit = 100;
  const matches: UidTransfer[] = [];
  try {
    for (let offset = 0; ; offset += limit) {
      const page = await client.request(
        {
          method: 'GET',
          path: '/wallet/push',
          priority: 'action',
          query: [['transaction_type', 'withdraw'], ...window, ['limit', String(limit)], ['offset', String(offset)]],
        },
        listOf(UidTransfer),
      );
      for (const r of page) {
        if (String(r.receive_uid) !== String(v.body.receive_uid) || r.currency !== v.body.currency) continue;
        if (!new Dec(r.amount).eq(new Dec(String(v.body.amount)))) continue;
        if (Number(r.create_time) < sentAt - 300 || claimed.has(String(r.id))) continue;
        matches.push(r);
      }
      if (page.length < limit) break;
    }
  } catch (e) {
    return unknownFrom(e);
  }
  if (matches.length === 0) return { kind: 'absent' };
  const first = matches[0]!;
  return { kind: 'found', copies: matches.length, exchange_id: String(first.id), status: first.status };
}
