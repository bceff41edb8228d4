import { createHmac, randomBytes } from 'node:crypto';
import { isDeskOrderId, isDeskOrderText, makeOrderId, ORDER_ID_ALPHABET } from '../../../shared/api/ids.ts';

// Two desks may share one API key (a spare laptop, a colleague's desk). Reconciliation flags any record
// carrying one of "this desk's" ids that its journal does not know, so an id must say which desk made it,
// not only that some desk did: its last 16 characters are 8 random ones and 8 of an HMAC of those under
// the desk's journal key. Another desk's ids (another key) fail the check and are left alone; a restored
// copy of this desk's folder has the same key and still recognizes every id the desk ever sent.

const TAG = 'treasury-desk-order-id-v1';
const NONCE = 8;

function tagOf(key: Buffer, nonce: string): string {
  const mac = createHmac('sha256', key).update(`${TAG}\n${nonce}\n`, 'utf8').digest();
  let out = '';
  for (let i = 0; i < 16 - NONCE; i++) out += ORDER_ID_ALPHABET[mac[i]! % 62];
  return out;
}

/**
 * A fresh id valid both as a withdraw_order_id and as a client_order_id. With the desk's key it carries
 * the desk's tag; without one (tools and tests that never reconcile) its 16 characters are all random.
 */
export function newOrderId(nowMs: number = Date.now(), key?: Buffer): string {
  const id = makeOrderId(nowMs, randomBytes(16));
  if (!key) return id;
  const nonce = id.slice(-16, -16 + NONCE);
  return `${id.slice(0, -16)}${nonce}${tagOf(key, nonce)}`;
}

/** Whether the last 16 characters of an id (or of an order's text) are this key's tag. */
function taggedBy(key: Buffer, s: string): boolean {
  const tail = s.slice(-16);
  return tail.length === 16 && tagOf(key, tail.slice(0, NONCE)) === tail.slice(NONCE);
}

/** Whether a withdraw_order_id or client_order_id is one the desk holding this key made. */
export function isOwnOrderId(key: Buffer, id: string): boolean {
  return isDeskOrderId(id) && taggedBy(key, id);
}

/** Whether a spot order's text is one the desk holding this key gave (writes/inputs.ts orderText). */
export function isOwnOrderText(key: Buffer, text: string): boolean {
  return isDeskOrderText(text) && taggedBy(key, text);
}
