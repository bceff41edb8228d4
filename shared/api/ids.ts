// Client-chosen ids that make writes identifiable at the exchange (§2.3, §2.5, §8.5).

/** §2.3 / §8.5: at most 32 characters of 0-9 A-Z a-z _ - . */
export const WITHDRAW_ORDER_ID_RE = /^[0-9A-Za-z_.-]{1,32}$/;

/** §2.5 / §8.5: 1 to 64 letters (case-sensitive), digits, - and _ */
export const CLIENT_ORDER_ID_RE = /^[0-9A-Za-z_-]{1,64}$/;

export function isWithdrawOrderId(s: string): boolean {
  return WITHDRAW_ORDER_ID_RE.test(s);
}

export function isClientOrderId(s: string): boolean {
  return CLIENT_ORDER_ID_RE.test(s);
}

/** Characters valid in both id formats, so one generator serves withdrawals and transfers. */
export const ORDER_ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * An id valid as both a withdraw_order_id and a client_order_id: "td" + time in base 36 + "-" + random.
 * The time part keeps ids sortable by creation for an operator reading exchange records; the random part
 * (`randomBytes` supplies at least 16 bytes; 16 base-62 characters carry about 95 bits) keeps them unique.
 */
export function makeOrderId(nowMs: number, randomBytes: Uint8Array): string {
  if (randomBytes.length < 16) throw new Error('makeOrderId needs at least 16 random bytes');
  let rand = '';
  for (let i = 0; i < 16; i++) rand += ORDER_ID_ALPHABET[randomBytes[i]! % 62];
  const id = `td${Math.max(0, Math.floor(nowMs)).toString(36)}-${rand}`;
  // 2 + at most 9 (base 36 of ms until the year 5188) + 1 + 16 = 28 characters.
  return id;
}

const DESK_ID = /^td[0-9a-z]{1,9}-[0-9A-Za-z]{16}$/;

/** Whether a withdraw_order_id or client_order_id has the shape makeOrderId gives: one this desk may have made. */
export function isDeskOrderId(s: string): boolean {
  return DESK_ID.test(s);
}

/**
 * Whether a spot order's text has the shape the desk gives its orders (`t-` and an id, or `t-` label `.`
 * the id's last 16 characters; see electron/core/writes/inputs.ts orderText).
 */
export function isDeskOrderText(s: string): boolean {
  return /^t-td[0-9a-z]{1,9}-[0-9A-Za-z]{16}$/.test(s) || /^t-[^.]+\.[0-9A-Za-z]{16}$/.test(s);
}
