/** A record at the exchange that carries one of this desk's ids, found by a reconciliation. */
export interface Finding {
  kind: 'withdrawal' | 'main_sub_transfer' | 'spot_order';
  /** The desk's id the record carries (withdraw_order_id, client_order_id or the order's text). */
  id: string;
  amount: string;
  currency: string;
  /** The record's time at the exchange (Unix seconds). */
  at: number;
}
