import { randomBytes } from 'node:crypto';
import { makeOrderId } from '../../../shared/api/ids.ts';

/** A fresh id valid both as a withdraw_order_id and as a client_order_id. */
export function newOrderId(nowMs: number = Date.now()): string {
  return makeOrderId(nowMs, randomBytes(16));
}
