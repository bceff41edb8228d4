import type { z } from 'zod';
import type { WriteRequest } from '../../../shared/api/writes.ts';
import type { IntentView } from '../journal/intents.ts';
import type { Journal } from '../journal/journal.ts';
import type { OperatorSignature } from '../journal/records.ts';
import type { IntentExtra } from '../writes/executor.ts';
import { writeFor } from './legs.ts';
import type { Plan } from './planner.ts';
import { accountKey, type AccountRef } from './route.ts';
import type { ReportRow } from './report.ts';
import { fromUnits, toUnits } from './units.ts';
import { intentOutcome } from '../journal/intentOutcome.ts';
import type { Decision } from '../../../shared/api/policy.ts';

// A rebalance plan runs as one batch approved once in the confirmation window (shared/api/batch.ts): its
// rows are the plan's requests, each with the exact body the operators signed. The runner sends each row
// through the write executor only when it is due (dispatchApproved: journaled first, exactly once), and
// records the rows it will not send (skipApproved), so that a restart never sends a cancelled one. A row
// the journal does not hold was never sent; one it holds is driven to its end, never sent twice.

const NOTE = /^rebalance (\S+) transfer (\d+) leg (\d+)\/(\d+)$/;

/** A write as DeskApprovals reviews and drafts it. */
export type WriteSpec = z.output<typeof WriteRequest>;

/** A row of an approved batch (the shape of shared/api/batch.ts BatchRow). */
export interface ApprovedRow {
  ref: string;
  kind: IntentView['kind'];
  body: Record<string, string | number>;
  note?: string;
  signer?: string;
}
export interface Approved {
  rows: ApprovedRow[];
  signatures: OperatorSignature[];
  by: string;
  /** When governance approved the batch: the executor looks up before the first send of a row approved before this run. */
  approved_at: number;
  /** What decided the batch's approval: journaled with every row, so each leg's record says so. */
  decided?: Decision;
}

/** The executor's two doors for approved batch rows. */
export interface LegSender {
  dispatchApproved(
    id: string,
    kind: IntentView['kind'],
    body: Record<string, string | number>,
    signatures: OperatorSignature[],
    by: string,
    extra?: IntentExtra,
  ): Promise<IntentView>;
  skipApproved(
    id: string,
    kind: IntentView['kind'],
    body: Record<string, string | number>,
    signatures: OperatorSignature[],
    reason: string,
    extra?: IntentExtra,
  ): unknown;
}

/** The plan's requests as batch rows to draft, each note tying it to its transfer and leg. */
export function batchWrites(plan: Plan, planId: string): { write: WriteSpec; note: string }[] {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(planId)) throw new Error('a plan id is 1 to 40 letters, digits, - or _');
  if (plan.unreachable.length) throw new Error('this plan cannot reach its targets; nothing of it can run');
  if (!plan.transfers.length) throw new Error('this plan moves nothing: every account is at its target already');
  // Every input is built (and checked) before anything is drafted: a bad leg changes nothing.
  return plan.transfers.flatMap((t, i) =>
    t.legs.map((l, j) => ({
      write: writeFor(plan.currency, l),
      note: `rebalance ${planId} transfer ${i + 1} leg ${j + 1}/${t.legs.length}`,
    })),
  );
}

interface Leg {
  row: ApprovedRow;
  transfer: number;
  leg: number;
}

function legsOf(rows: readonly ApprovedRow[]): Leg[] {
  return rows
    .map((row) => {
      const m = row.note ? NOTE.exec(row.note) : null;
      if (!m) throw new Error(`batch row ${row.ref} is no rebalance leg (its note is ${JSON.stringify(row.note ?? null)})`);
      return { row, transfer: Number(m[2]), leg: Number(m[3]) };
    })
    .sort((a, b) => a.transfer - b.transfer || a.leg - b.leg);
}

/** What a row carries beside its body, as the executor journals it. */
const extraOf = (row: ApprovedRow): IntentExtra => ({
  ...(row.note ? { note: row.note } : {}),
  ...(row.signer ? { signer: row.signer } : {}),
});

/** Where a request takes money from and puts it, for the report and the resume check. */
function sides(row: Pick<ApprovedRow, 'kind' | 'body' | 'signer'>): { from: AccountRef; to: AccountRef } {
  const { kind, body: b } = row;
  const acct = (owner: string, k: unknown, pair?: unknown): AccountRef => ({
    owner,
    kind: String(k ?? 'spot') as AccountRef['kind'],
    ...(pair ? { pair: String(pair) } : {}),
  });
  if (kind === 'sub_to_sub_transfer')
    return { from: acct(String(b.sub_account_from), b.sub_account_from_type), to: acct(String(b.sub_account_to), b.sub_account_to_type) };
  if (kind === 'main_sub_transfer') {
    const sub = acct(String(b.sub_account), b.sub_account_type);
    return b.direction === 'to' ? { from: acct('main', 'spot'), to: sub } : { from: sub, to: acct('main', 'spot') };
  }
  // A move between a sub-account's own accounts is signed by its key; the body is §4.1's own-account body.
  const owner = kind === 'sub_own_transfer' ? (row.signer ?? '?') : 'main';
  const pairOf = (k: unknown) => (k === 'margin' ? b.currency_pair : undefined);
  return { from: acct(owner, b.from, pairOf(b.from)), to: acct(owner, b.to, pairOf(b.to)) };
}

export interface BatchRunOptions {
  journal: Journal;
  sender: LegSender;
  approved: Approved;
  currency: string;
  /** Fresh available balances of these accounts in the batch's currency, keyed by accountKey. */
  readBalances: (accounts: AccountRef[], currency: string) => Promise<Map<string, string>>;
  /** Transfers under way at once (default 8: the scheduler's in-flight cap). Legs of one transfer go in order. */
  concurrency?: number;
  onProgress?: (rows: ReportRow[]) => void;
  /** Why nothing may be sent now (a freeze), or null: checked before each row leaves. */
  held?: () => string | null;
}

/** `paused`: the balances no longer allow the rest; `held`: sending stopped for a while (a freeze), to go on later. */
export interface BatchOutcome {
  rows: ReportRow[];
  paused: string | null;
  held: string | null;
  cancelled: boolean;
}

/** The executor leaves a row in these while it may not send (frozen, locked) or has not settled it yet. */
const UNSETTLED = new Set(['approved', 'in_flight', 'unconfirmed']);

const OK_STATES = new Set(['done', 'accepted']);

export class BatchRun {
  private cancelled: string | null = null;
  private heldBy: string | null = null;
  private readonly legs: Leg[];

  constructor(private readonly opts: BatchRunOptions) {
    this.legs = legsOf(opts.approved.rows);
  }

  /** Stops between transfers: what is under way finishes, the rest is recorded as skipped, unsent. */
  cancel(reason: string): void {
    this.cancelled = reason;
  }

  /**
   * Runs (or, after a crash or restart, finishes) the batch. Balances are read first: if a transfer not yet
   * sent would now take more than its source holds, nothing more is sent and the reason comes back in
   * `paused`.
   */
  async run(): Promise<BatchOutcome> {
    const why = await this.overdraws();
    if (why) return { rows: this.rows(), paused: why, held: null, cancelled: false };
    const byTransfer = new Map<number, Leg[]>();
    for (const l of this.legs) byTransfer.set(l.transfer, [...(byTransfer.get(l.transfer) ?? []), l]);
    const queue = [...byTransfer.values()];
    const worker = async (): Promise<void> => {
      for (let legs = queue.shift(); legs && this.heldBy === null; legs = queue.shift()) {
        await this.runTransfer(legs);
        this.opts.onProgress?.(this.rows());
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.opts.concurrency ?? 8) }, worker));
    return { rows: this.rows(), paused: null, held: this.heldBy, cancelled: this.cancelled !== null };
  }

  isCancelling(): boolean {
    return this.cancelled !== null;
  }

  /** Records every row not yet sent as skipped (a paused batch the operator gives up). */
  skipRest(reason: string): ReportRow[] {
    for (const l of this.legs) if (!this.opts.journal.intent(l.row.ref)) this.skip(l, reason);
    return this.rows();
  }

  private skip(l: Leg, reason: string): void {
    const { approved } = this.opts;
    this.opts.sender.skipApproved(l.row.ref, l.row.kind, l.row.body, approved.signatures, reason, {
      ...extraOf(l.row),
      ...(approved.decided ? { decided: approved.decided } : {}),
    });
  }

  private async runTransfer(legs: Leg[]): Promise<void> {
    const { journal, sender, approved } = this.opts;
    for (const [i, l] of legs.entries()) {
      let v = journal.intent(l.row.ref);
      if (!v && this.cancelled !== null) {
        this.skip(l, `rebalance cancelled: ${this.cancelled}`);
        continue;
      }
      const held = this.opts.held?.() ?? null;
      if (held !== null) {
        this.heldBy = held;
        return;
      }
      // Idempotent: a row the journal holds is only driven to its end.
      v = await sender.dispatchApproved(l.row.ref, l.row.kind, l.row.body, approved.signatures, approved.by, {
        ...extraOf(l.row),
        ...(approved.decided ? { decided: approved.decided } : {}),
        approved_at: approved.approved_at,
      });
      if (UNSETTLED.has(v.state)) {
        this.heldBy ??= `a ${v.kind.replace(/_/g, ' ')} is ${v.state.replace(/_/g, ' ')} and waits`;
        return;
      }
      // A later leg carries what an earlier one delivered: it goes only after that one is done.
      if (!OK_STATES.has(v.state)) {
        for (const rest of legs.slice(i + 1))
          if (!journal.intent(rest.row.ref)) this.skip(rest, `an earlier step of this transfer is ${v.state.replace(/_/g, ' ')}`);
        return;
      }
    }
  }

  /** The first transfer not yet sent whose source no longer holds what the batch still takes from it. */
  private async overdraws(): Promise<string | null> {
    const owed = new Map<string, { account: AccountRef; units: bigint }>();
    for (const l of this.legs) {
      if (l.leg !== 1 || this.opts.journal.intent(l.row.ref)) continue;
      const { from } = sides(l.row);
      const k = accountKey(from);
      const o = owed.get(k) ?? { account: from, units: 0n };
      o.units += toUnits(String(l.row.body.amount), 'amount');
      owed.set(k, o);
    }
    if (!owed.size) return null;
    const { currency } = this.opts;
    const held = await this.opts.readBalances(
      [...owed.values()].map((o) => o.account),
      currency,
    );
    for (const [k, o] of owed) {
      const has = toUnits(held.get(k) ?? '0', `${k} balance`);
      if (has < o.units) {
        return `${k} now holds ${fromUnits(has)} ${currency}, less than the ${fromUnits(o.units)} the rest of the batch takes from it (short by ${fromUnits(o.units - has)}): the balances changed since the plan. Cancel the rest and plan again from the current balances, or put the money back and resume.`;
      }
    }
    return null;
  }

  /** One row per planned transfer: done when every leg is, else how its first unfinished leg stands. */
  rows(): ReportRow[] {
    const { journal, currency } = this.opts;
    const rows: ReportRow[] = [];
    const transfers = [...new Set(this.legs.map((l) => l.transfer))];
    for (const t of transfers) {
      const legs = this.legs.filter((l) => l.transfer === t);
      const first = sides(legs[0]!.row);
      const last = sides(legs.at(-1)!.row);
      const views = legs.map((l) => journal.intent(l.row.ref));
      // A leg the journal does not hold was never sent: `find` cannot tell it from "none", so look by index.
      const at = views.findIndex((v) => !v || !OK_STATES.has(v.state));
      const bad = at < 0 ? null : views[at];
      const outcome = intentOutcome(bad ?? undefined);
      const state: ReportRow['state'] = at < 0 ? 'done' : outcome.state === 'running' ? 'pending' : outcome.state;
      const reason = at < 0 ? '' : outcome.reason;
      rows.push({
        transfer: t,
        from: accountKey(first.from),
        to: accountKey(last.to),
        amount: String(legs[0]!.row.body.amount),
        currency,
        state,
        reason,
        ...(bad?.state === 'unconfirmed'
          ? { in_doubt: true, ...(bad.doubt_until !== undefined ? { doubt_until: bad.doubt_until } : {}) }
          : {}),
      });
    }
    return rows;
  }
}
