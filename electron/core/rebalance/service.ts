import { join } from 'node:path';
import { z } from 'zod';
import type { BatchView, PlanRequest, RebalancePlan, RebalanceScope, Template } from '../../../shared/rebalance.ts';
import type { BatchArchive } from '../store/batchArchive.ts';
import { InputError } from '../errors.ts';
import type { DeskApprovals } from '../approvals/deskApprovals.ts';
import type { ActiveSession, Session } from '../session.ts';
import { readBalances } from './balances.ts';
import { BatchRun, batchWrites, type Approved, type WriteSpec } from './batch.ts';
import { computePlan, PlanShelf } from './plans.ts';
import { reportCsv } from './report.ts';
import { readScope } from './scope.ts';
import { TemplateStore } from './templates.ts';

// The rebalance as the core runs it: what is in scope, plans from balances the core reads itself, the
// plan drafted as one batch for the confirmation window (DeskApprovals.draftBatch), and the runner that
// sends an approved batch's rows, once each, through the active profile's executor. Which batches exist,
// and what each is, the governance store says (signed by its drafter); the journal says what was sent. A
// desk that starts finds every approved, unfinished batch there and finishes it.

/** DeskApprovals' batch doors (shared/api/batch.ts), as this service uses them. */
export type BatchGate = Pick<
  DeskApprovals,
  'draftBatch' | 'batchesOf' | 'batchStatus' | 'approvedBatch' | 'closeBatch' | 'holdReason' | 'frozenReason'
>;

/** A rebalance batch as its drafted payload says; `signed` is false while only its draft ticket exists. */
interface Entry {
  ref: string;
  plan: string;
  title: string;
  currency: string;
  created_at: number;
  signed: boolean;
}

export interface RebalanceServiceOptions {
  dataDir: string;
  session: Session;
  approvals: BatchGate;
  /** Which batches the operator archived (kept off the page's list, across restarts). */
  archive: BatchArchive;
  /** A batch's progress or state changed. */
  changed: (ref: string) => void;
  /** Tells the operator a batch finished or paused (desktop notification and in-app notice). */
  notify?: (n: { title: string; body: string; tag: string }) => void;
  log: (line: string) => void;
  now?: () => number;
}

export class RebalanceService {
  private readonly plans: PlanShelf;
  readonly templates: TemplateStore;
  private readonly runs = new Map<string, BatchRun>();
  private readonly paused = new Map<string, string>();
  /** Batches a freeze (or a write left unsettled) stopped: tried again at the next kick. */
  private readonly held = new Map<string, string>();
  private readonly now: () => number;
  private kicking: Promise<void> = Promise.resolve();

  constructor(private readonly opts: RebalanceServiceOptions) {
    this.now = opts.now ?? Date.now;
    this.plans = new PlanShelf(this.now);
    this.templates = new TemplateStore(join(opts.dataDir, 'rebalance', 'templates.json'));
  }

  private active(): ActiveSession {
    return this.opts.session.active();
  }

  /** The active profile's rebalance batches, oldest first. */
  private async batches(): Promise<Entry[]> {
    return (await this.opts.approvals.batchesOf('rebalance')).map((b) => ({
      ref: b.ref,
      plan: b.payload.source.plan ?? '',
      title: b.payload.title,
      currency: b.payload.source.currency ?? '',
      created_at: b.drafted_at,
      signed: b.signed,
    }));
  }

  // ---- scope and plans ----

  scope(currency: string): Promise<RebalanceScope> {
    return readScope(this.active(), currency, this.now);
  }

  async plan(req: z.output<typeof PlanRequest>): Promise<RebalancePlan> {
    const s = this.active();
    const p = await computePlan(s.client, req);
    return { ...p, ...this.plans.keep(p, s.id) };
  }

  // ---- templates ----

  listTemplates(): Template[] {
    return this.templates.list(this.active().id);
  }

  saveTemplate(t: Template): Template[] {
    return this.templates.save(this.active().id, t);
  }

  deleteTemplate(name: string): Template[] {
    return this.templates.remove(this.active().id, name);
  }

  // ---- the batch ----

  async draft(planId: string): Promise<{ ticket: string; title: string; ref: string }> {
    const s = this.active();
    const p = this.plans.fresh(planId, s.id);
    let writes: { write: WriteSpec; note: string }[];
    try {
      writes = batchWrites(p, planId);
    } catch (e) {
      throw new InputError(['plan'], (e as Error).message);
    }
    const title = `Rebalance ${p.currency}: ${p.transfers.length} transfer${p.transfers.length === 1 ? '' : 's'} moving ${p.moved} ${p.currency}`;
    const source = {
      plan: planId,
      currency: p.currency,
      moved: p.moved,
      transfers: String(p.transfers.length),
      requests: String(p.requests),
      extra_hops: String(p.extraHops),
    };
    const t = await this.opts.approvals.draftBatch({ batch: 'rebalance', title, source, writes });
    this.plans.drop(planId);
    this.opts.changed(t.ref);
    return t;
  }

  /** The batches not archived, newest first. */
  async list(): Promise<BatchView[]> {
    const s = this.active();
    const archived = this.opts.archive.archived(s.id, 'rebalance');
    const out: BatchView[] = [];
    for (const b of (await this.batches()).reverse()) {
      if (archived.has(b.ref)) continue;
      const v = await this.view(s, b);
      if (v) out.push(v);
    }
    return out;
  }

  private async view(s: ActiveSession, b: Entry): Promise<BatchView | null> {
    // The governance store holds a batch from the drafter's signature on: before it, only the ticket.
    if (!b.signed)
      return {
        ref: b.ref,
        plan: b.plan,
        title: b.title,
        currency: b.currency,
        created_at: b.created_at,
        transfers: 0,
        rows: [],
        cancelling: false,
        state: 'waiting',
        paused: null,
      };
    const status = await this.opts.approvals.batchStatus(b.ref);
    if (!status) return null;
    const run = this.runs.get(b.ref);
    const rows = run
      ? run.rows()
      : s.journal
        ? this.runner(s, b, { rows: status.payload.rows, signatures: [], by: '', approved_at: -Infinity }).rows()
        : [];
    const base = {
      ref: b.ref,
      plan: b.plan,
      title: b.title,
      currency: b.currency,
      created_at: b.created_at,
      transfers: rows.length,
      rows,
      cancelling: run?.isCancelling() ?? false,
    };
    if (status.state === 'waiting' || status.state === 'rejected' || status.state === 'expired')
      return { ...base, state: status.state, paused: null };
    const paused = this.paused.get(b.ref) ?? (run ? null : (this.held.get(b.ref) ?? null));
    const state = paused ? 'paused' : run || rows.some((r) => r.state === 'pending') ? 'running' : 'finished';
    return { ...base, state, paused };
  }

  /** Takes a batch that has ended off the list; nothing of it is forgotten (journal, approvals, report). */
  async archive(ref: string): Promise<{ archived: true }> {
    const v = await this.batch(ref);
    if (v.state !== 'finished' && v.state !== 'rejected')
      throw new InputError(['ref'], `This batch is ${v.state}: it can be archived once it has finished or been rejected.`);
    this.opts.archive.archive(this.active().id, 'rebalance', ref, this.now());
    return { archived: true };
  }

  async batch(ref: string): Promise<BatchView> {
    const s = this.active();
    const b = (await this.batches()).find((x) => x.ref === ref);
    const v = b ? await this.view(s, b) : null;
    if (!v)
      throw new InputError(
        ['ref'],
        `there is no rebalance batch ${ref} for this profile (a draft declined in the confirmation window, or not signed before the desk restarted, leaves none; nothing of it was sent)`,
      );
    return v;
  }

  private runner(s: ActiveSession, b: Entry, approved: Approved): BatchRun {
    if (!s.journal || !s.writes)
      throw new InputError([], 'This profile has no usable journal, so it sends no writes (see the Activity page).');
    return new BatchRun({
      journal: s.journal,
      sender: s.writes,
      approved,
      currency: b.currency,
      readBalances: (accounts, currency) => readBalances(s.client, accounts, currency),
      onProgress: () => this.opts.changed(b.ref),
      held: () => this.opts.approvals.frozenReason(s.id),
    });
  }

  /** Starts every approved, unfinished batch of the active profile that is not running or paused. */
  kick(): Promise<void> {
    const next = this.kicking.then(() => this.kickNow());
    this.kicking = next.catch((e: unknown) => this.opts.log(`[rebalance] ${(e as Error).message}`));
    return this.kicking;
  }

  private async kickNow(): Promise<void> {
    const s = this.active();
    if (!s.journal || !s.writes) return;
    const hold = await this.opts.approvals.holdReason();
    for (const b of await this.batches()) {
      if (!b.signed || this.runs.has(b.ref) || this.paused.has(b.ref)) continue;
      const status = await this.opts.approvals.batchStatus(b.ref);
      if (status?.state !== 'approved') continue;
      const approved = await this.opts.approvals.approvedBatch(b.ref);
      if (!approved) continue;
      const run = this.runner(s, b, approved);
      if (!run.rows().some((r) => r.state === 'pending')) {
        await this.opts.approvals.closeBatch(b.ref);
        continue;
      }
      if (hold !== null) {
        this.held.set(b.ref, `Held: ${hold}. It goes on when that ends.`);
        continue;
      }
      this.held.delete(b.ref);
      this.runs.set(b.ref, run);
      this.opts.log(`[rebalance] ${b.ref}: running (${b.title})`);
      void run
        .run()
        .then(
          (out) => {
            if (out.paused) this.paused.set(b.ref, out.paused);
            if (out.held) this.held.set(b.ref, `Held: ${out.held}. It goes on when that ends.`);
            // Nothing left to send: the governance store marks the batch sent, so no desk runs it again.
            else if (!out.paused && !out.rows.some((r) => r.state === 'pending'))
              void this.opts.approvals
                .closeBatch(b.ref)
                .catch((e: unknown) => this.opts.log(`[rebalance] ${b.ref}: ${(e as Error).message}`));
            this.opts.log(`[rebalance] ${b.ref}: ${out.paused ? `paused: ${out.paused}` : out.held ? `held: ${out.held}` : 'ended'}`);
            const count = (state: string) => out.rows.filter((r) => r.state === state).length;
            if (out.paused) this.opts.notify?.({ title: `Rebalance paused: ${b.title}`, body: out.paused, tag: `rebalance:${b.ref}` });
            else if (!out.held && !out.rows.some((r) => r.state === 'pending'))
              this.opts.notify?.({
                title: `Rebalance finished: ${b.title}`,
                body: `${count('done')} done, ${count('failed')} failed, ${count('skipped')} skipped.`,
                tag: `rebalance:${b.ref}`,
              });
          },
          (e: unknown) => {
            this.paused.set(b.ref, `the batch stopped: ${(e as Error).message}`);
            this.opts.log(`[rebalance] ${b.ref}: ${(e as Error).message}`);
          },
        )
        .finally(() => {
          this.runs.delete(b.ref);
          this.opts.changed(b.ref);
        });
      this.opts.changed(b.ref);
    }
  }

  /** Cancel between transfers: a running batch stops after the transfers under way; a paused one skips the rest. */
  async cancel(ref: string, reason: string): Promise<BatchView> {
    const s = this.active();
    const v = await this.batch(ref);
    const run = this.runs.get(ref);
    if (run) run.cancel(reason);
    else if (v.state === 'paused' || v.state === 'running') {
      const approved = await this.opts.approvals.approvedBatch(ref);
      if (!approved) throw new InputError(['ref'], 'this batch is not approved');
      this.runner(
        s,
        (await this.batches()).find((x) => x.ref === ref)!,
        approved,
      ).skipRest(`rebalance cancelled: ${reason}`);
      this.paused.delete(ref);
    } else if (v.state === 'waiting') {
      throw new InputError(['ref'], 'This batch waits for approval: reject it on the Approvals page, and nothing of it is sent.');
    } else throw new InputError(['ref'], `this batch is ${v.state}: nothing is left to cancel`);
    this.opts.changed(ref);
    return this.batch(ref);
  }

  /** After a pause: reads the balances again and goes on if they now allow it (or pauses again, saying why). */
  async resume(ref: string): Promise<BatchView> {
    const v = await this.batch(ref);
    if (v.state !== 'paused') throw new InputError(['ref'], `this batch is ${v.state}, not paused`);
    this.paused.delete(ref);
    await this.kick();
    return this.batch(ref);
  }

  async report(ref: string): Promise<{ filename: string; csv: string; rows: number }> {
    const v = await this.batch(ref);
    return {
      filename: `rebalance-${v.currency}-${new Date(v.created_at).toISOString().slice(0, 10)}-${ref.slice(0, 12)}.csv`,
      csv: reportCsv(v.rows),
      rows: v.rows.length,
    };
  }
}
