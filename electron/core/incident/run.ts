import type { IncidentRun as IncidentRunView } from '../../../shared/incident.ts';
import type { Journal } from '../journal/journal.ts';
import type { Approved, ApprovedRow, LegSender } from '../rebalance/batch.ts';
import { stepOf } from './steps.ts';
import { intentOutcome } from '../journal/intentOutcome.ts';

// An approved incident sequence runs one step at a time through the write executor (dispatchApproved:
// journaled first, exactly once, looked up before any resend). The journal decides what is left: a step it
// holds is only driven to its end, one it does not hold was never sent. After a crash the runner is simply
// run again. A step the exchange refuses does not stop the rest: containment goes on as far as it can.

type StepView = IncidentRunView['steps'][number];

/** The executor leaves a step in these while it may not send (frozen, locked) or has not settled it yet. */
const UNSETTLED = new Set(['approved', 'in_flight', 'unconfirmed']);

export interface IncidentRunOptions {
  journal: Journal;
  sender: LegSender;
  approved: Approved;
  /** Why a step of this kind may not be sent now (a freeze, a reconciliation), or null: asked before each step. */
  held?: (kind: string) => string | null;
  onProgress?: () => void;
}

export class IncidentRunner {
  private readonly rows: ApprovedRow[];

  constructor(private readonly opts: IncidentRunOptions) {
    this.rows = [...opts.approved.rows].sort((a, b) => (stepOf(a.note)?.step ?? 0) - (stepOf(b.note)?.step ?? 0));
  }

  /** Runs (or finishes) the sequence; answers why it stopped early (held), or null when every step ended. */
  async run(): Promise<string | null> {
    const { journal, sender, approved } = this.opts;
    for (const row of this.rows) {
      const known = journal.intent(row.ref);
      if (known && !UNSETTLED.has(known.state) && known.state !== 'pending_approval') continue;
      const held = this.opts.held?.(row.kind) ?? null;
      if (held !== null) return held;
      const v = await sender.dispatchApproved(row.ref, row.kind, row.body, approved.signatures, approved.by, {
        ...(row.note ? { note: row.note } : {}),
        ...(row.signer ? { signer: row.signer } : {}),
        ...(approved.decided ? { decided: approved.decided } : {}),
        approved_at: approved.approved_at,
      });
      this.opts.onProgress?.();
      // The next step may rest on this one (a sweep on the cancels before it): it waits for this to settle.
      if (UNSETTLED.has(v.state)) return `step ${stepOf(row.note)?.step ?? '?'} is ${v.state.replace(/_/g, ' ')} and waits`;
    }
    return null;
  }

  finished(): boolean {
    return this.steps().every((s) => s.state !== 'pending' && s.state !== 'running');
  }

  steps(): StepView[] {
    return this.rows.map((row) => {
      const v = this.opts.journal.intent(row.ref);
      const what = stepOf(row.note)?.what ?? row.kind.replace(/_/g, ' ');
      const { state, reason } = intentOutcome(v);
      return { ref: row.ref, kind: row.kind, summary: what, state, reason };
    });
  }
}
