import { labelSentence } from '../../../shared/api/labels.ts';
import type { IntentView } from '../journal/intents.ts';
import type { Journal } from '../journal/journal.ts';
import type { WriteExecutor } from '../writes/executor.ts';
import { writeFor } from './legs.ts';
import type { Plan } from './planner.ts';
import { accountKey, type AccountRef } from './route.ts';
import type { ReportRow } from './report.ts';
import { fromUnits, toUnits } from './units.ts';

// A rebalance plan runs as one batch through the write journal and executor. prepareBatch journals every
// request as an intent awaiting approval (the seam for the approvals issue: today writeApprove, or
// BatchRun.run, approves them). BatchRun approves each request only when it is due, so that a cancel
// leaves the rest unapproved and a crash leaves them as they were; the executor's rules keep each one
// exactly once (client_order_id where §4.1 has one; without one an unclear answer waits for an operator).
// The notes tie the intents to their batch, so a restarted desk finds the batch in its journal.

const NOTE = /^rebalance (\S+) transfer (\d+) leg (\d+)\/(\d+)$/;

export interface BatchLeg { intent: string; transfer: number; leg: number; legs: number }
export interface Batch { id: string; currency: string; legs: BatchLeg[]; transfers: number }

export function prepareBatch(executor: WriteExecutor, plan: Plan, id: string): Batch {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(id)) throw new Error('a batch id is 1 to 40 letters, digits, - or _');
  if (plan.unreachable.length) throw new Error('this plan cannot reach its targets; nothing of it can run');
  // Every input is built (and checked) before the first intent is journaled: a bad leg changes nothing.
  const inputs = plan.transfers.map((t) => t.legs.map((l) => writeFor(plan.currency, l)));
  const legs: BatchLeg[] = [];
  inputs.forEach((ws, t) => ws.forEach((w, l) => {
    const v = executor.prepare(w, `rebalance ${id} transfer ${t + 1} leg ${l + 1}/${ws.length}`);
    legs.push({ intent: v.id, transfer: t + 1, leg: l + 1, legs: ws.length });
  }));
  return { id, currency: plan.currency, transfers: plan.transfers.length, legs };
}

/** The batch as the journal holds it (after a restart too). */
export function findBatch(journal: Journal, id: string): Batch {
  const legs: BatchLeg[] = [];
  let currency = '';
  for (const v of journal.intents()) {
    const m = v.note ? NOTE.exec(v.note) : null;
    if (!m || m[1] !== id) continue;
    currency = String(v.body.currency);
    legs.push({ intent: v.id, transfer: Number(m[2]), leg: Number(m[3]), legs: Number(m[4]) });
  }
  if (!legs.length) throw new Error(`the journal holds no rebalance batch ${id}`);
  legs.sort((a, b) => a.transfer - b.transfer || a.leg - b.leg);
  return { id, currency, legs, transfers: legs.at(-1)!.transfer };
}

/** Where a request takes money from and puts it, for the report and the resume check. */
function sides(v: IntentView): { from: AccountRef; to: AccountRef } {
  const b = v.body;
  const acct = (owner: string, kind: unknown): AccountRef => ({ owner, kind: String(kind ?? 'spot') as AccountRef['kind'] });
  if (v.kind === 'sub_to_sub_transfer') return { from: acct(String(b.sub_account_from), b.sub_account_from_type), to: acct(String(b.sub_account_to), b.sub_account_to_type) };
  if (v.kind === 'main_sub_transfer') {
    const sub = acct(String(b.sub_account), b.sub_account_type);
    return b.direction === 'to' ? { from: acct('main', 'spot'), to: sub } : { from: sub, to: acct('main', 'spot') };
  }
  const owner = v.kind === 'sub_own_transfer' ? v.signer ?? '?' : 'main';
  return { from: acct(owner, b.from), to: acct(owner, b.to) };
}

export interface BatchRunOptions {
  journal: Journal;
  executor: WriteExecutor;
  /** A fresh balance of one account in the batch's currency (read before a resume continues). */
  readBalance: (account: AccountRef, currency: string) => Promise<string>;
  /** Transfers under way at once (default 8: the scheduler's in-flight cap). Legs of one transfer go in order. */
  concurrency?: number;
  onProgress?: (rows: ReportRow[]) => void;
}

export interface BatchOutcome { rows: ReportRow[]; paused: string | null; cancelled: boolean }

export class BatchRun {
  private cancelled: string | null = null;

  constructor(private readonly opts: BatchRunOptions, readonly batchId: string) {}

  /** Stops between transfers: what is under way finishes, the rest is cancelled unsent (skipped). */
  cancel(reason: string): void {
    this.cancelled = reason;
  }

  /**
   * Runs (or, after a crash or restart, finishes) the batch. A batch some of whose requests were already
   * approved is a resumed one: balances are read first, and if a transfer not yet started would now take
   * more than its source holds, nothing more is sent and the reason comes back in `paused`.
   */
  async run(by: string): Promise<BatchOutcome> {
    const batch = findBatch(this.opts.journal, this.batchId);
    const started = batch.legs.some((l) => this.view(l.intent).state !== 'pending_approval');
    if (started) {
      // Requests a previous run left approved, in flight or unconfirmed are the executor's to settle first.
      await this.opts.executor.resume();
      const why = await this.overdraws(batch);
      if (why) return { rows: this.rows(batch), paused: why, cancelled: false };
    }
    const byTransfer = new Map<number, BatchLeg[]>();
    for (const l of batch.legs) byTransfer.set(l.transfer, [...(byTransfer.get(l.transfer) ?? []), l]);
    const queue = [...byTransfer.values()];
    const worker = async (): Promise<void> => {
      for (let legs = queue.shift(); legs; legs = queue.shift()) {
        await this.runTransfer(legs, by);
        this.opts.onProgress?.(this.rows(batch));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.opts.concurrency ?? 8) }, worker));
    return { rows: this.rows(batch), paused: null, cancelled: this.cancelled !== null };
  }

  private view(id: string): IntentView {
    return this.opts.journal.intent(id)!;
  }

  private async runTransfer(legs: BatchLeg[], by: string): Promise<void> {
    for (const l of legs) {
      let v = this.view(l.intent);
      if (v.state === 'pending_approval') {
        if (this.cancelled !== null) { this.opts.executor.cancel(l.intent, `rebalance cancelled: ${this.cancelled}`); continue; }
        v = await this.opts.executor.approve(l.intent, by);
      }
      // A later leg carries what an earlier one delivered: it goes only after that one is done.
      if (v.state !== 'done' && v.state !== 'accepted') {
        for (const rest of legs.filter((x) => x.leg > l.leg)) {
          if (this.view(rest.intent).state === 'pending_approval') this.opts.executor.cancel(rest.intent, `an earlier step of this transfer is ${v.state}`);
        }
        return;
      }
    }
  }

  /** The first not-yet-started transfer whose source no longer holds what the batch still takes from it. */
  private async overdraws(batch: Batch): Promise<string | null> {
    const owed = new Map<string, { account: AccountRef; units: bigint }>();
    for (const l of batch.legs) {
      const v = this.view(l.intent);
      if (l.leg !== 1 || v.state !== 'pending_approval') continue;
      const { from } = sides(v);
      const k = accountKey(from);
      const o = owed.get(k) ?? { account: from, units: 0n };
      o.units += toUnits(String(v.body.amount), 'amount');
      owed.set(k, o);
    }
    for (const [k, o] of owed) {
      const held = toUnits(await this.opts.readBalance(o.account, batch.currency), `${k} balance`);
      if (held < o.units) {
        const short = o.units - held;
        return `${k} now holds less ${batch.currency} than the rest of the batch takes from it (short by ${fromUnits(short)}): the balances changed since the plan. Re-plan from the current balances.`;
      }
    }
    return null;
  }

  private rows(batch: Batch): ReportRow[] {
    const rows: ReportRow[] = [];
    for (let t = 1; t <= batch.transfers; t++) {
      const legs = batch.legs.filter((l) => l.transfer === t).map((l) => this.view(l.intent));
      if (!legs.length) continue;
      const first = sides(legs[0]!);
      const last = sides(legs.at(-1)!);
      const bad = legs.find((v) => v.state !== 'done' && v.state !== 'accepted');
      const state = !bad ? 'done'
        : bad.state === 'refused' ? 'failed'
          : bad.state === 'cancelled' ? 'skipped'
            : bad.state === 'needs_attention' ? 'needs_attention' : 'pending';
      const reason = !bad ? '' : bad.state === 'refused' ? (bad.label ? labelSentence(bad.label) : bad.reason ?? '') : bad.reason ?? '';
      rows.push({ transfer: t, from: accountKey(first.from), to: accountKey(last.to), amount: String(legs[0]!.body.amount), currency: batch.currency, state, reason });
    }
    return rows;
  }
}

