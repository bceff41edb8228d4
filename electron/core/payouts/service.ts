import { stringify } from 'csv-stringify/sync';
import type { z } from 'zod';
import { labelSentence } from '../../../shared/api/labels.ts';
import type { Verdict } from '../../../shared/api/policy.ts';
import { listOf, LowCapList, WithdrawalChain, WithdrawalLimits } from '../../../shared/api/records.ts';
import type { WriteRequest } from '../../../shared/api/writes.ts';
import type { IntentView } from '../../../shared/ipc.ts';
import type {
  PayoutBatchItem,
  PayoutOutcome,
  PayoutProgress,
  PayoutProgressRow,
  PayoutReview,
  PayoutRowView,
  PayoutTotal,
} from '../../../shared/payouts.ts';
import type { BatchPayload, BatchSpec } from '../../../shared/api/batch.ts';
import type { DeskApprovals } from '../approvals/deskApprovals.ts';
import type { ApiRequest } from '../client/client.ts';
import { InputError } from '../errors.ts';
import { spreadsheetSafe } from '../history/csv.ts';
import { checkRows, type CheckContext, type CheckedRow } from './check.ts';
import { decodeBase64, parsePayoutFile } from './parse.ts';
import { settledAsDone } from '../journal/intentOutcome.ts';

// Payouts from a file, in the core: read the exchange's chains and limits, check every row, review the
// valid rows as one batch under the policy (velocity counts the whole batch), draft that batch for the
// confirmation window, and follow its rows through the journal once the dispatcher sends them.

/** The part of the batch approvals (electron/core/approvals/deskApprovals.ts) that payouts use. */
export type BatchPort = Pick<DeskApprovals, 'reviewBatch' | 'draftBatch' | 'batchesOf' | 'batchStatus'>;

export interface PayoutDeps {
  call<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>>;
  batch(): BatchPort;
  /** The active profile's journal view of one write. */
  intent(id: string): IntentView | undefined;
}

/** The row's note in the batch and the journal: where it came from, so an auditor can find it in the file. */
export function rowNote(file: string, row: number, reference: string): string {
  return `${file} row ${row}${reference ? `, reference ${reference}` : ''}`;
}
const NOTE = /^(.*) row (\d+)(?:, reference (.*))?$/s;

function fileOf(req: { file: string; content_base64: string }): Buffer {
  const bytes = decodeBase64(req.content_base64);
  if (!bytes) throw new InputError(['content_base64'], 'the file content is not base64 as the window sends it.');
  return bytes;
}

function writeOf(r: CheckedRow): z.output<typeof WriteRequest> {
  return {
    kind: 'withdrawal',
    input: { currency: r.currency, chain: r.chain, address: r.address, amount: r.amount, ...(r.memo ? { memo: r.memo } : {}) },
  };
}

export class PayoutService {
  constructor(private readonly deps: PayoutDeps) {}

  private async context(currencies: string[]): Promise<CheckContext> {
    const statuses = await this.deps.call(
      { method: 'GET', path: '/wallet/withdraw_status', query: [], priority: 'action' },
      listOf(WithdrawalLimits),
    );
    const chains = new Map<string, WithdrawalChain[] | string>();
    for (const c of new Set(currencies)) {
      if (!statuses.some((s) => s.currency === c)) continue;
      try {
        chains.set(
          c,
          await this.deps.call(
            { method: 'GET', path: '/wallet/currency_chains', query: [['currency', c]], priority: 'action' },
            listOf(WithdrawalChain),
          ),
        );
      } catch (e) {
        chains.set(c, (e as Error).message);
      }
    }
    // Unreadable, the low-cap list names nothing: such a currency is still refused, as one the exchange lists no withdrawals of.
    const lowCap = await this.deps
      .call({ method: 'GET', path: '/wallet/getLowCapExchangeList', priority: 'action' }, LowCapList)
      .then((l) => new Set(l))
      .catch(() => undefined);
    return { statuses, chains, ...(lowCap ? { lowCap } : {}) };
  }

  private async checked(req: { file: string; content_base64: string }) {
    const parsed = parsePayoutFile(fileOf(req));
    if (parsed.problems.length) return { parsed, rows: [], totals: [] };
    const ctx = await this.context(parsed.rows.map((r) => r.cells.currency));
    return { parsed, ...checkRows(parsed.rows, parsed.columns, ctx) };
  }

  private spec(file: string, sha256: string, valid: CheckedRow[]): BatchSpec {
    return {
      batch: 'payouts',
      // The batch's title is at most 200 characters; the file's full name is in its source.
      title: `${valid.length} withdrawal${valid.length === 1 ? '' : 's'} from ${file.length > 150 ? `${file.slice(0, 149)}…` : file}`,
      source: { file, sha256 },
      writes: valid.map((r) => ({ write: writeOf(r), note: rowNote(file, r.row, r.reference) })),
    };
  }

  async review(req: { file: string; content_base64: string }): Promise<PayoutReview> {
    const { parsed, rows, totals } = await this.checked(req);
    const valid = rows.filter((r) => r.problems.length === 0);
    let verdict: Verdict | null = null;
    let batchError: string | null = null;
    const perRow = new Map<number, { verdict: Verdict; destination_note: string | null }>();
    if (valid.length) {
      try {
        const b = await this.deps.batch().reviewBatch(this.spec(req.file, parsed.sha256, valid), null, feesOf(totals));
        verdict = b.verdict;
        b.rows.forEach((x, i) => perRow.set(valid[i]!.row, x));
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        batchError = e.message;
      }
    }
    const views: PayoutRowView[] = rows.map((r) => ({
      ...r,
      verdict: perRow.get(r.row)?.verdict ?? null,
      destination_note: perRow.get(r.row)?.destination_note ?? null,
    }));
    return {
      file: req.file,
      sha256: parsed.sha256,
      bytes: parsed.bytes,
      file_problems: parsed.problems,
      rows: views,
      totals,
      verdict,
      batch_error: batchError,
    };
  }

  /** Drafts the valid rows as one batch, if they are still the rows the operator reviewed. */
  async queue(req: {
    file: string;
    content_base64: string;
    rows: number[];
  }): Promise<{ ticket: string; title: string; ref: string; rows: number }> {
    const { parsed, rows, totals } = await this.checked(req);
    if (parsed.problems.length) throw new InputError(['content_base64'], parsed.problems[0]!.message);
    const valid = rows.filter((r) => r.problems.length === 0);
    const same = valid.length === req.rows.length && valid.every((r, i) => r.row === req.rows[i]);
    if (!same) {
      throw new InputError(
        ['rows'],
        "The exchange's limits or chains changed since the review, and other rows check now. Nothing was queued: review the file again.",
      );
    }
    const t = await this.deps.batch().draftBatch(this.spec(req.file, parsed.sha256, valid), feesOf(totals));
    return { ticket: t.ticket, title: t.title, ref: t.ref, rows: t.rows.length };
  }

  async progress(ref: string): Promise<PayoutProgress> {
    const s = await this.batchOf(ref);
    const rows = s.payload.rows.map((r): PayoutProgressRow => {
      const m = NOTE.exec(r.note ?? '');
      const base = {
        ref: r.ref,
        row: m ? Number(m[2]) : null,
        reference: m?.[3] ?? '',
        currency: String(r.body.currency ?? ''),
        chain: String(r.body.chain ?? ''),
        address: String(r.body.address ?? ''),
        memo: String(r.body.memo ?? ''),
        amount: String(r.body.amount ?? ''),
      };
      const v = this.deps.intent(r.ref);
      const { outcome, sentence } = outcomeOf(v, s.state);
      return {
        ...base,
        outcome,
        state: v?.state ?? null,
        doubt_until: v?.doubt_until ?? null,
        status: v?.status ?? null,
        exchange_id: v?.exchange_id ?? null,
        label: v?.label ?? null,
        sentence,
      };
    });
    const counts = { pending: 0, sent: 0, refused: 0, skipped: 0 };
    for (const r of rows) counts[r.outcome] += 1;
    return {
      ref,
      title: s.payload.title,
      file: s.payload.source.file ?? '',
      sha256: s.payload.source.sha256 ?? '',
      state: s.state,
      approved_by: s.approved_by,
      needed: s.needed ?? 0,
      rows,
      counts,
    };
  }

  /** The batches not in `archived`, newest first, as the page lists them. */
  async list(archived: ReadonlySet<string>): Promise<PayoutBatchItem[]> {
    const out: PayoutBatchItem[] = [];
    for (const b of (await this.deps.batch().batchesOf('payouts')).reverse()) {
      if (archived.has(b.ref)) continue;
      const p = await this.progress(b.ref);
      out.push({
        ref: p.ref,
        title: p.title,
        file: p.file,
        state: p.state,
        counts: p.counts,
        created_at: b.drafted_at,
        rows: p.rows.length,
        totals: b.payload.totals,
        archivable: archivable(p),
      });
    }
    return out;
  }

  /** Checks that the batch has ended, so that archiving hides nothing the operator must still follow. */
  async archivable(ref: string): Promise<void> {
    const p = await this.progress(ref);
    if (!archivable(p))
      throw new InputError(
        ['ref'],
        `This batch is still under way (${p.counts.pending} of ${p.rows.length} rows to go): it can be archived once every row has ended, or once it is rejected.`,
      );
  }

  /** The batch as governance holds it once its drafter signed; before that, the draft waiting in the confirmation window. */
  private async batchOf(
    ref: string,
  ): Promise<{ state: PayoutProgress['state']; payload: BatchPayload; approved_by: string[]; needed: number }> {
    const b = this.deps.batch();
    const entry = (await b.batchesOf('payouts')).find((x) => x.ref === ref);
    const s = entry?.signed ? await b.batchStatus(ref) : null;
    if (s) return s;
    if (!entry) throw new InputError(['ref'], `there is no payout batch ${ref} (a draft declined in the confirmation window leaves none).`);
    return { state: 'drafted', payload: entry.payload, approved_by: [], needed: entry.payload.verdict.approvals };
  }

  async report(ref: string): Promise<{ filename: string; csv: string; rows: number }> {
    const p = await this.progress(ref);
    const columns = [
      'row',
      'reference',
      'currency',
      'chain',
      'address',
      'memo',
      'amount',
      'outcome',
      'state',
      'status',
      'withdraw_order_id',
      'exchange_id',
      'label',
      'sentence',
    ];
    const records = p.rows.map((r) =>
      [
        r.row ?? '',
        r.reference,
        r.currency,
        r.chain,
        r.address,
        r.memo,
        r.amount,
        r.outcome,
        r.state ?? '',
        r.status ?? '',
        r.ref,
        r.exchange_id ?? '',
        r.label ?? '',
        r.sentence ?? '',
      ].map((c) => spreadsheetSafe(String(c))),
    );
    const base = p.file.replace(/\.csv$/i, '') || 'payouts';
    return { filename: `${base}-report.csv`, csv: stringify(records, { header: true, columns }), rows: records.length };
  }
}

/** A batch has ended when it was rejected, or when every row has its outcome (sent, refused or skipped). */
function archivable(p: PayoutProgress): boolean {
  return p.state === 'rejected' || (p.state !== 'drafted' && p.state !== 'waiting' && p.counts.pending === 0);
}

/** The fee totals the core's own checks found, signed into the batch with its amounts. */
function feesOf(totals: PayoutTotal[]): Map<string, string> {
  return new Map(totals.map((t) => [t.currency, t.fee]));
}

function outcomeOf(v: IntentView | undefined, batch: PayoutProgress['state']): { outcome: PayoutOutcome; sentence: string | null } {
  if (!v)
    return batch === 'rejected'
      ? { outcome: 'skipped', sentence: 'The batch was rejected: this row was never sent.' }
      : batch === 'expired'
        ? { outcome: 'skipped', sentence: 'The batch expired before its approvals were complete: this row was never sent.' }
        : { outcome: 'pending', sentence: null };
  switch (v.state) {
    case 'accepted':
    case 'done':
      return { outcome: 'sent', sentence: null };
    case 'refused':
      return { outcome: 'refused', sentence: v.label ? labelSentence(v.label, v.reason) : (v.reason ?? null) };
    case 'cancelled':
      return { outcome: 'skipped', sentence: v.reason ?? null };
    case 'settled':
      return { outcome: settledAsDone(v) ? 'sent' : 'skipped', sentence: v.reason ?? null };
    default:
      return { outcome: 'pending', sentence: v.reason ?? null };
  }
}
