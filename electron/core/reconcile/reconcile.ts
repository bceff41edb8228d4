import type { IntentView } from '../journal/intents.ts';
import type { RecordReader } from '../client/pagination.ts';
import { windowedRecords } from '../sync/windows.ts';
import { isOwnOrderId, isOwnOrderText } from '../writes/ids.ts';
import { findDeskOrders } from './orders.ts';
import type { Watermark } from './watermark.ts';
import type { Finding } from './finding.ts';

export type { Finding } from './finding.ts';

// The exchange is the high-water mark. Every withdrawal and main/sub transfer this desk sends carries an
// id it made (shared/api/ids.ts), journaled before the request leaves, and every spot order a text made
// from one. So a record at the exchange carrying such an id that the journal does not know can only mean
// the journal lost entries: the data folder was restored from an older copy (or replaced). Before the
// desk sends anything after a start or an unlock, it reads those records back and compares.
//
// Built for a live account with years of history: it reads only since the last reconciliation (a
// watermark, less an overlap for records that show up late), in 30-day windows of full pages, through
// the client's §8.2 scheduler; the first reconciliation of a profile reads one year.

/** Records can be listed some time after the moment they carry: read again this far before the watermark. */
export const OVERLAP_SEC = 3_600;
/** How far back the first reconciliation of a profile reads. */
export const FIRST_LOOKBACK_SEC = 365 * 86_400;

export interface ReconcileInput {
  client: RecordReader;
  /** Every intent the journal holds: their ids are the ones the desk knows it sent or may send. */
  intents: readonly IntentView[];
  watermark: Watermark | null;
  /** The journal's key: the desk's ids carry its tag (writes/ids.ts), so another desk's on the same API key are not ours. */
  key: Buffer;
  /** Spot orders are listed per pair and per key: the pairs to read, and the reader of each signer's orders. */
  orderReaders?: ReadonlyArray<{ pair: string; account?: string; client: RecordReader }>;
  now: number;
}

export interface Reconciled {
  findings: Finding[];
  /** The time read up to (Unix seconds): the next watermark, once the findings (if any) are settled. */
  through: number;
  requests: number;
}

/** Counts the requests a reconciliation makes, for the operator's log and the tests' bounds. */
function counting(client: RecordReader, count: { n: number }): RecordReader {
  return {
    request: (req, schema) => {
      count.n++;
      return client.request(req, schema);
    },
    requestList: (req, record, opts) => {
      count.n++;
      return client.requestList(req, record, opts);
    },
  };
}

export async function reconcile(input: ReconcileInput): Promise<Reconciled> {
  const through = Math.floor(input.now / 1000) + 60;
  const from = input.watermark ? input.watermark.through - OVERLAP_SEC : through - FIRST_LOOKBACK_SEC;
  const known = new Set(input.intents.map((v) => v.client_id).filter((x): x is string => x !== null));
  const count = { n: 0 };
  const client = counting(input.client, count);
  const findings: Finding[] = [];
  const note = (f: Finding): void => {
    if (!known.has(f.id) && !findings.some((x) => x.kind === f.kind && x.id === f.id)) findings.push(f);
  };
  for await (const r of windowedRecords(client, { path: '/wallet/withdrawals', from, to: through, priority: 'visible', concurrency: 1 })) {
    const id = r.withdraw_order_id ?? '';
    if (isOwnOrderId(input.key, id)) note({ kind: 'withdrawal', id, amount: r.amount, currency: r.currency, at: Number(r.timestamp) });
  }
  for await (const r of windowedRecords(client, {
    path: '/wallet/sub_account_transfers',
    from,
    to: through,
    priority: 'visible',
    concurrency: 1,
    // Transfer records have no id of their own: the client id (or the whole record) tells repeats apart.
    key: (t) => t.client_order_id || JSON.stringify(t),
  })) {
    const id = r.client_order_id ?? '';
    if (isOwnOrderId(input.key, id)) note({ kind: 'main_sub_transfer', id, amount: r.amount, currency: r.currency, at: Number(r.timest) });
  }
  for (const o of input.orderReaders ?? []) {
    const found = await findDeskOrders(counting(o.client, count), o.pair, o.account, from, through);
    for (const f of found) if (isOwnOrderText(input.key, f.id)) note(f);
  }
  return { findings, through, requests: count.n };
}

/** The operator's sentence for what reconciliation found: what, which id, how much. */
export function describeFindings(findings: readonly Finding[]): string {
  const what = (f: Finding): string =>
    `${f.kind.replace(/_/g, ' ')} ${f.id} of ${f.amount} ${f.currency} at ${new Date(f.at * 1000).toISOString()}`;
  const shown = findings.slice(0, 5).map(what).join('; ');
  const more = findings.length > 5 ? `; and ${findings.length - 5} more` : '';
  return (
    `The exchange holds ${findings.length} write${findings.length === 1 ? '' : 's'} carrying this desk's ids that this journal does not know ` +
    `(${shown}${more}). The data folder went back in time (restored from an older copy, or replaced), so the journal cannot say what was sent: ` +
    `nothing will be sent until an operator archives this journal and settles what it left.`
  );
}
