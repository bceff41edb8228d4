// Apart from shared/api/orders.ts (its schemas): the status words (statusWords.ts) are shown by pages
// that paint before zod loads (docs/performance.md §Opening the desk).

/** `status` of an order record. §3.5 calls every state after `open` "finished" (the list filter). */
export const ORDER_STATUSES = {
  open: 'On the book, waiting to be filled',
  closed: 'Filled in full',
  cancelled: 'Cancelled (by the user, time in force, self-trade prevention or the market)',
} as const;
export type OrderStatus = keyof typeof ORDER_STATUSES;
