import { z } from 'zod';

export { unreadText } from './unreadText.ts';

// Records of a list answer that did not have the shape of their kind: the desk keeps the others and
// sets these aside, with what was wrong, so that the operator sees what a page or a total leaves out.

export const UnreadRecord = z.object({
  /** "GET /wallet/sub_account_futures_balances" */
  endpoint: z.string(),
  /** The record's own id where it has one ("uid 10000123"), else its place in the answer ("record 7"). */
  record: z.string(),
  /** The field as a path into the record ("available.usdt.unrealised_pnl"). */
  field: z.string(),
  problem: z.string(),
});
export type UnreadRecord = z.infer<typeof UnreadRecord>;

/** Every record the latest answers set aside, across the desk's reads (the status bar counts them). */
export const UnreadRecords = z.object({ count: z.number().int().nonnegative(), records: z.array(UnreadRecord) });
export type UnreadRecords = z.infer<typeof UnreadRecords>;
