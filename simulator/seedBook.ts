import type Decimal from 'decimal.js';
import { Dec, fmt } from '../shared/money.ts';
import type { DB } from './db.ts';
import { HOUSE_UID } from './ledger.ts';
import { depositId } from './ledger/deposits.ts';
import { REFUNDED, wireId } from './ledger/withdrawals.ts';

// A seeded world's records are written straight into their tables, not through the writes that keep the
// ledger, so without this its account book (GET /spot/account_book) would hold none of them and a
// statement of any past month would find the exchange's own history unexplained. Each seeded record of
// the tree gets the ledger entries its live write makes (ledger.ts applyMoves: same pockets, kind and
// ref), balances untouched. The demo world's balances were drawn apart from its history, so counted
// back from them a balance can read below zero before a large seeded deposit (docs/sandbox.md says so);
// raising the balances instead would turn the world's dust and figures into others.

interface Entry {
  ts: number;
  uid: string;
  type: string;
  subKey: string;
  currency: string;
  delta: Decimal;
  kind: string;
  ref: string;
}

const CREDITED = "('DONE', 'DEP_CREDITED')";
const TRANSFER_KIND: Record<string, string> = { main_sub: 'sub_transfer', sub_sub: 'sub_to_sub', own: 'transfer' };

function seededEntries(db: DB, uids: string[], nowSec: number): Entry[] {
  const inTree = new Set(uids);
  const list = uids.map(() => '?').join(',');
  const out: Entry[] = [];
  const add = (ts: number, uid: string, currency: string, delta: Decimal, kind: string, ref: string, type = 'spot') => {
    // A futures pocket is narrowed by its settle currency, as transfers.ts makes it.
    const subKey = type === 'futures' ? currency.toLowerCase() : '';
    if ((inTree.has(uid) || uid === HOUSE_UID) && !delta.isZero())
      out.push({ ts: Math.min(ts, nowSec), uid, type, subKey, currency, delta, kind, ref });
  };

  const wds = db
    .prepare(`SELECT seq, uid, currency, amount, status, timestamp, timestamp2 FROM withdrawals WHERE uid IN (${list})`)
    .all(...uids) as {
    seq: number;
    uid: string;
    currency: string;
    amount: string;
    status: string;
    timestamp: number;
    timestamp2: number | null;
  }[];
  for (const w of wds) {
    add(w.timestamp, w.uid, w.currency, new Dec(w.amount).neg(), 'withdraw', wireId(w.seq));
    if (REFUNDED.has(w.status)) {
      const kind = w.status === 'CANCEL' ? 'withdraw_cancel' : 'withdraw_reject';
      add(w.timestamp2 ?? w.timestamp, w.uid, w.currency, new Dec(w.amount), kind, wireId(w.seq));
    }
  }
  const deps = db
    .prepare(`SELECT seq, uid, currency, amount, timestamp FROM deposits WHERE uid IN (${list}) AND status IN ${CREDITED}`)
    .all(...uids) as { seq: number; uid: string; currency: string; amount: string; timestamp: number }[];
  for (const d of deps) add(d.timestamp, d.uid, d.currency, new Dec(d.amount), 'deposit', depositId(d.seq));

  const trs = db
    .prepare(
      `SELECT tx_id, kind, from_uid, from_type, to_uid, to_type, currency, amount, timest FROM transfers
       WHERE status = 'SUCCESS' AND (from_uid IN (${list}) OR to_uid IN (${list}))`,
    )
    .all(...uids, ...uids) as {
    tx_id: number;
    kind: string;
    from_uid: string;
    from_type: string;
    to_uid: string;
    to_type: string;
    currency: string;
    amount: string;
    timest: number;
  }[];
  for (const t of trs) {
    const kind = TRANSFER_KIND[t.kind] ?? 'transfer';
    add(t.timest, t.from_uid, t.currency, new Dec(t.amount).neg(), kind, `tx${t.tx_id}`, t.from_type);
    add(t.timest, t.to_uid, t.currency, new Dec(t.amount), kind, `tx${t.tx_id}`, t.to_type);
  }

  // Only a received UID transfer moved money (a live push is received at once).
  const pushes = db
    .prepare(
      `SELECT id, push_uid, receive_uid, currency, amount, create_time FROM uid_transfers
       WHERE status = 'RECEIVED' AND (push_uid IN (${list}) OR receive_uid IN (${list}))`,
    )
    .all(...uids, ...uids) as {
    id: number;
    push_uid: string;
    receive_uid: string;
    currency: string;
    amount: string;
    create_time: number;
  }[];
  for (const p of pushes) {
    add(p.create_time, p.push_uid, p.currency, new Dec(p.amount).neg(), 'uid_transfer', `push${p.id}`);
    add(p.create_time, p.receive_uid, p.currency, new Dec(p.amount), 'uid_transfer', `push${p.id}`);
  }

  const smalls = db
    .prepare(`SELECT id, uid, currency, amount, gt_amount, create_time FROM small_balance_history WHERE uid IN (${list})`)
    .all(...uids) as { id: number; uid: string; currency: string; amount: string; gt_amount: string; create_time: number }[];
  for (const s of smalls) {
    const ref = `small${s.id}`;
    add(s.create_time, s.uid, s.currency, new Dec(s.amount).neg(), 'small_balance', ref);
    add(s.create_time, HOUSE_UID, s.currency, new Dec(s.amount), 'small_balance', ref);
    add(s.create_time, HOUSE_UID, 'GT', new Dec(s.gt_amount).neg(), 'small_balance', ref);
    add(s.create_time, s.uid, 'GT', new Dec(s.gt_amount), 'small_balance', ref);
  }
  // Oldest first, so that the ledger's ids grow with time as the live writes make them.
  return out.sort((a, b) => a.ts - b.ts);
}

/** Books the seeded records of the tree `uids` into the ledger, as their live writes would have. */
export function bookSeededHistory(db: DB, uids: string[], nowSec: number): void {
  const insert = db.prepare(
    'INSERT INTO ledger_entries (ts, uid, account_type, sub_key, currency, delta, kind, ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const e of seededEntries(db, uids, Math.floor(nowSec)))
    insert.run(e.ts, e.uid, e.type, e.subKey, e.currency, fmt(e.delta), e.kind, e.ref);
}
