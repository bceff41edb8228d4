import { stringify } from 'csv-stringify/sync';
import type { BatchPayload, BatchSpec } from '../../../shared/api/batch.ts';
import { listOf, LowCapList, SmallBalance, SmallBalanceRecord } from '../../../shared/api/records.ts';
import type { IntentView } from '../../../shared/ipc.ts';
import { Dec, fmt } from '../../../shared/money.ts';
import type {
  DustAccount,
  DustAccountView,
  DustHistoryRow,
  DustOutcome,
  DustOverview,
  DustProgress,
  DustReview,
} from '../../../shared/smallBalance.ts';
import type { BatchPort } from '../payouts/service.ts';
import type { WriteClient } from '../writes/lookups.ts';
import { InputError } from '../errors.ts';
import { spreadsheetSafe } from '../history/csv.ts';
import { intentOutcome } from '../journal/intentOutcome.ts';

// Small balances in the core: each account's dust read with its own key (§4.1 GET /wallet/small_balance
// answers for the caller only), converted through the batch approvals and the write executor (one
// small_balance_convert write per account and currency, journaled, exactly once: writes/smallBalanceLookup.ts
// says how a lost answer is settled), and each account's conversion history.

/** §4.1 getLowCapExchangeList changes rarely: read again after this long. */
export const LOW_CAP_TTL_MS = 10 * 60_000;
/** The CSV export walks the history up to this many pages of 100 (§8.1). */
const MAX_CSV_PAGES = 100;

export interface DustDeps {
  /** The client that signs as `account` (the main key, or the sub-account's own); throws when the profile holds none. */
  clientOf(account: DustAccount): WriteClient;
  /** The sub-accounts whose keys the profile holds. */
  subAccounts(): string[];
  batch(): BatchPort;
  intent(id: string): IntentView | undefined;
  /** The journal's conversions not yet ended (approved, in flight, unconfirmed, waiting for an operator). */
  unfinished(): IntentView[];
  lowCap(): Promise<string[]>;
}

const NOTE = /^small balance (main|\d{1,18}) (\S+)$/;
const noteOf = (account: DustAccount, currency: string) => `small balance ${account} ${currency}`;

/** A cache of the low-cap list per profile, refreshed once older than LOW_CAP_TTL_MS (a failed read keeps the last one). */
export class LowCapCache {
  private readonly byProfile = new Map<string, { at: number; list: string[] }>();
  constructor(private readonly now: () => number = Date.now) {}

  async get(profile: string, client: WriteClient): Promise<{ currencies: string[]; fetched_at: number }> {
    const hit = this.byProfile.get(profile);
    if (hit && this.now() - hit.at < LOW_CAP_TTL_MS) return { currencies: hit.list, fetched_at: hit.at };
    try {
      const list = await client.request({ method: 'GET', path: '/wallet/getLowCapExchangeList' }, LowCapList);
      const entry = { at: this.now(), list: [...new Set(list)].sort() };
      this.byProfile.set(profile, entry);
      return { currencies: entry.list, fetched_at: entry.at };
    } catch (e) {
      if (hit) return { currencies: hit.list, fetched_at: hit.at };
      throw e;
    }
  }
}

export class DustService {
  constructor(private readonly deps: DustDeps) {}

  private accounts(): DustAccount[] {
    return ['main', ...this.deps.subAccounts()];
  }

  private client(account: DustAccount, path: (string | number)[]): WriteClient {
    try {
      return this.deps.clientOf(account);
    } catch (e) {
      throw new InputError(path, (e as Error).message);
    }
  }

  async list(): Promise<DustOverview> {
    const lowCap = new Set(await this.deps.lowCap().catch(() => []));
    const views = await Promise.all(
      this.accounts().map(async (account): Promise<DustAccountView> => {
        try {
          const items = await this.client(account, []).request({ method: 'GET', path: '/wallet/small_balance' }, listOf(SmallBalance));
          return {
            account,
            items: items.map((i) => ({
              currency: i.currency,
              available_balance: i.available_balance,
              estimated_as_btc: i.estimated_as_btc,
              convertible_to_gt: i.convertible_to_gt,
              low_cap: lowCap.has(i.currency),
            })),
            total_btc: sum(items.map((i) => i.estimated_as_btc)),
            total_gt: sum(items.map((i) => i.convertible_to_gt)),
            error: null,
          };
        } catch (e) {
          return { account, items: [], total_btc: '0', total_gt: '0', error: (e as Error).message };
        }
      }),
    );
    return { accounts: views, total_btc: sum(views.map((v) => v.total_btc)), total_gt: sum(views.map((v) => v.total_gt)) };
  }

  /**
   * The selected rows as writes, from the balances the core reads now (the window's figures are never
   * trusted): a currency that is no longer a small balance of its account is refused, naming it.
   */
  private async spec(rows: ReadonlyArray<{ account: DustAccount; currency: string }>): Promise<{ spec: BatchSpec; gt: string[] }> {
    const seen = new Set<string>();
    const byAccount = new Map<DustAccount, Promise<SmallBalance[]>>();
    const writes: BatchSpec['writes'] = [];
    const gt: string[] = [];
    for (const [i, r] of rows.entries()) {
      const key = `${r.account} ${r.currency}`;
      if (seen.has(key)) throw new InputError(['rows', i], `${r.currency} of ${accountWords(r.account)} is selected twice.`);
      seen.add(key);
      // Two conversions of one balance at once could take each other's history record as proof: one at a time.
      const under = this.deps
        .unfinished()
        .find((v) => v.body.currency === r.currency && (v.signer ?? 'main') === r.account && v.state !== 'pending_approval');
      if (under)
        throw new InputError(
          ['rows', i],
          `A conversion of ${r.currency} of ${accountWords(r.account)} is still under way (${under.state.replace(/_/g, ' ')}): nothing was queued. Wait for it to end.`,
        );
      let items = byAccount.get(r.account);
      if (!items) {
        const client = this.client(r.account, ['rows', i, 'account']);
        byAccount.set(
          r.account,
          (items = client.request({ method: 'GET', path: '/wallet/small_balance', priority: 'action' }, listOf(SmallBalance))),
        );
      }
      const item = (await items).find((x) => x.currency === r.currency);
      if (!item)
        throw new InputError(
          ['rows', i, 'currency'],
          `${r.currency} is no longer a small balance of ${accountWords(r.account)} (converted, moved or grown since the list was read). Nothing was queued: read the list again.`,
        );
      writes.push({
        write: {
          kind: 'small_balance_convert',
          input: { currency: r.currency, amount: item.available_balance, ...(r.account === 'main' ? {} : { sub_uid: r.account }) },
        },
        note: noteOf(r.account, r.currency),
      });
      gt.push(item.convertible_to_gt);
    }
    const accounts = new Set(rows.map((r) => r.account)).size;
    return {
      spec: {
        batch: 'small_balance',
        title: `Convert ${rows.length} small balance${rows.length === 1 ? '' : 's'} of ${accounts} account${accounts === 1 ? '' : 's'} to GT`,
        source: { accounts: String(accounts) },
        writes,
      },
      gt,
    };
  }

  async review(rows: ReadonlyArray<{ account: DustAccount; currency: string }>): Promise<DustReview> {
    const { spec, gt } = await this.spec(rows);
    const b = await this.deps.batch().reviewBatch(spec);
    return {
      rows: b.rows.map((r, i) => ({
        account: rows[i]!.account,
        currency: rows[i]!.currency,
        amount: String(r.body.amount),
        convertible_to_gt: gt[i]!,
        verdict: r.verdict,
      })),
      verdict: b.verdict,
    };
  }

  async convert(rows: ReadonlyArray<{ account: DustAccount; currency: string }>) {
    const { spec } = await this.spec(rows);
    const t = await this.deps.batch().draftBatch(spec);
    return { ticket: t.ticket, title: t.title, ref: t.ref, rows: t.rows.length };
  }

  async progress(ref: string): Promise<DustProgress> {
    const b = this.deps.batch();
    const entry = (await b.batchesOf('small_balance')).find((x) => x.ref === ref);
    if (!entry)
      throw new InputError(['ref'], `there is no small-balance batch ${ref} (a draft declined in the confirmation window leaves none).`);
    const s = entry.signed ? await b.batchStatus(ref) : null;
    const batch: { state: DustProgress['state']; payload: BatchPayload; approved_by: string[]; needed: number } = s ?? {
      state: 'drafted',
      payload: entry.payload,
      approved_by: [],
      needed: entry.payload.verdict.approvals,
    };
    return {
      ref,
      title: batch.payload.title,
      state: batch.state,
      approved_by: batch.approved_by,
      needed: batch.needed,
      rows: batch.payload.rows.map((r) => {
        const m = NOTE.exec(r.note ?? '');
        const v = this.deps.intent(r.ref);
        const { outcome, sentence } = outcomeOf(v, batch.state);
        return {
          ref: r.ref,
          account: (m?.[1] ?? r.signer ?? 'main') as DustAccount,
          currency: String(r.body.currency),
          amount: String(r.body.amount),
          outcome,
          state: v?.state ?? null,
          exchange_id: v?.exchange_id ?? null,
          sentence,
        };
      }),
    };
  }

  private historyPage(account: DustAccount, currency: string | undefined, page: number, limit: number): Promise<SmallBalanceRecord[]> {
    return this.client(account, ['account']).request(
      {
        method: 'GET',
        path: '/wallet/small_balance_history',
        query: [...(currency ? [['currency', currency] as [string, string]] : []), ['page', String(page)], ['limit', String(limit)]],
      },
      listOf(SmallBalanceRecord),
    );
  }

  async history(req: { account: DustAccount; currency?: string | undefined; page: number; limit: number }) {
    const rows = await this.historyPage(req.account, req.currency, req.page, req.limit);
    return { rows: rows.map(historyRow), page: req.page, limit: req.limit, more: rows.length === req.limit };
  }

  async historyCsv(req: { account: DustAccount; currency?: string | undefined }) {
    const all: DustHistoryRow[] = [];
    for (let page = 1; page <= MAX_CSV_PAGES; page++) {
      const rows = await this.historyPage(req.account, req.currency, page, 100);
      all.push(...rows.map(historyRow));
      if (rows.length < 100) break;
    }
    const columns = ['account', 'id', 'currency', 'amount', 'gt_amount', 'create_time'];
    const records = all.map((r) =>
      [req.account, r.id, r.currency, r.amount, r.gt_amount, new Date(r.create_time * 1000).toISOString()].map((c) =>
        spreadsheetSafe(String(c)),
      ),
    );
    return {
      filename: `small-balance-history-${req.account}${req.currency ? `-${req.currency}` : ''}.csv`,
      csv: stringify(records, { header: true, columns }),
      rows: records.length,
    };
  }
}

function historyRow(r: SmallBalanceRecord): DustHistoryRow {
  return { id: r.id, currency: r.currency, amount: r.amount, gt_amount: r.gt_amount, create_time: Number(r.create_time) };
}

function sum(values: readonly string[]): string {
  return fmt(values.reduce((s, v) => s.plus(new Dec(v)), new Dec(0)));
}

export function accountWords(account: DustAccount): string {
  return account === 'main' ? 'the main account' : `sub-account ${account}`;
}

function outcomeOf(v: IntentView | undefined, batch: DustProgress['state']): { outcome: DustOutcome; sentence: string | null } {
  if (!v)
    return batch === 'rejected' || batch === 'expired'
      ? { outcome: 'skipped', sentence: `The batch was ${batch}: this balance was never converted.` }
      : { outcome: 'pending', sentence: null };
  const { state, reason } = intentOutcome(v);
  const sentence = reason || null;
  switch (state) {
    case 'done':
      return { outcome: 'converted', sentence: v.state === 'settled' ? sentence : null };
    case 'failed':
      return { outcome: 'refused', sentence };
    case 'skipped':
    case 'needs_attention':
      return { outcome: state, sentence };
    default:
      return { outcome: 'pending', sentence: null };
  }
}
