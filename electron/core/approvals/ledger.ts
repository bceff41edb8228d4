import type { GovernanceBody } from '../journal/records.ts';
import { applyGovernance, foldGovernance } from '../governance/fold.ts';
import { GovernanceError, type GovernanceRules, type GovernanceState } from '../governance/state.ts';
import { staleWhy } from '../governance/stale.ts';
import { StoreConflictError, type GovernanceStore } from './store.ts';
import { wedgeOfRecord } from './wedge.ts';

// The governance records of one store as this desk holds them: read and folded once, read again when
// another desk changed them, and appended to one change at a time, each record checked against the
// state first (on a copy) so that a record that does not check is never stored. Every part of the
// approvals (service.ts) reads and writes the records through this.

/** How many times a signed record is placed again after other desks appended first, before the operator is asked to look again. */
const CONFLICT_ATTEMPTS = 5;

export interface LedgerOptions {
  store: GovernanceStore;
  rules: GovernanceRules;
  now: () => number;
  /** See ApprovalsOptions.onRecordsChanged (service.ts). */
  onRecordsChanged?: (error: Error | null) => void;
  /** See ApprovalsOptions.readOnly (service.ts). */
  readOnly?: string | (() => string | null);
}

/** What the parts of an Approvals share (service.ts builds them): its store, rules and clock, and this ledger of its records. */
export interface ApprovalsParts {
  store: GovernanceStore;
  rules: GovernanceRules;
  now: () => number;
  ledger: GovernanceLedger;
}

export class GovernanceLedger {
  private state: GovernanceState | null = null;
  /** The state last read whole, kept while the store cannot be reached: an offline freeze is signed against it. */
  private last: GovernanceState | null = null;
  /** One change at a time in this process; the store's conflict check guards against other processes. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: LedgerOptions) {
    opts.store.subscribe?.(() => void this.reread());
  }

  /** Reads the records again after another desk's change; a read that fails leaves no state to send from. */
  private reread(): Promise<void> {
    return this.serial(async () => {
      try {
        this.state = this.last = await this.readState();
      } catch (e) {
        this.state = null;
        this.opts.onRecordsChanged?.(e as Error);
        return;
      }
      this.opts.onRecordsChanged?.(null);
    });
  }

  /** The records folded; a shared store has folded them already while verifying them, and hands a copy. */
  private async readState(): Promise<GovernanceState> {
    const store = this.opts.store;
    return store.readState ? store.readState() : foldGovernance(await store.read(), this.opts.rules);
  }

  async load(): Promise<GovernanceState> {
    this.state ??= this.last = await this.readState();
    return this.state;
  }

  /** The state as last loaded, for synchronous checks (the executor's "may I send now?"). */
  cached(): GovernanceState | null {
    return this.state;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => {});
    return run;
  }

  /** The state last read whole (see `last`), or null before any read succeeded. */
  lastRead(): GovernanceState | null {
    return this.last;
  }

  /** Checks the record against the state first (on a copy), then stores it: a record that does not check is never stored. */
  append(body: GovernanceBody, leased?: readonly string[]): Promise<void> {
    this.writable();
    return this.serial(async () => {
      // Another desk appending first moves the end, not what was signed (a signature names no position):
      // the record is checked again against the records as they now stand and appended there, or refused.
      for (let attempt = 1; ; attempt++) {
        const s = await this.load();
        const at = this.opts.now();
        const wedge = wedgeOfRecord(s, this.opts.rules, body, at);
        if (wedge) throw new GovernanceError(wedge);
        const stale = staleRecord(s, body, at);
        if (stale) throw new GovernanceError(`${stale}: nothing was signed into the records and nothing changed.`);
        const scratch = cloneState(s);
        applyGovernance(scratch, body, at, this.opts.rules);
        const record = withDecision(body, scratch, s.seq);
        try {
          const store = this.opts.store;
          await (leased && store.handOver ? store.handOver(record, s.seq, leased) : store.append(record, s.seq));
        } catch (e) {
          if (!(e instanceof StoreConflictError) || attempt >= CONFLICT_ATTEMPTS) throw e;
          this.state = await this.readState();
          continue;
        }
        // Swapped whole, never left empty: the executor reads it synchronously at any moment.
        this.state = this.last = await this.readState();
        return;
      }
    });
  }

  /** Throws on an auditor desk, before anything is asked of an operator. */
  writable(): void {
    const why = this.readOnly;
    if (why) throw new GovernanceError(why);
  }

  /** Why this desk signs nothing, or null. */
  get readOnly(): string | null {
    const r = this.opts.readOnly;
    return (typeof r === 'function' ? r() : r) ?? null;
  }
}

export function cloneState(s: GovernanceState): GovernanceState {
  return structuredClone(s);
}

/**
 * The record with what judged its proposal, when it is the one that decided it (the fold judged it at
 * this position, `seq`): stored with it, so that a later policy or desk never relabels the decision.
 */
function withDecision(body: GovernanceBody, after: GovernanceState, seq: number): GovernanceBody {
  if (body.type !== 'proposal' && body.type !== 'signoff' && body.type !== 'rejection') return body;
  const judged = after.proposals.get(body.ref)?.judged;
  return judged && judged.seq === seq ? { ...body, decided: judged.decision } : body;
}

/** Why a change or freeze would change nothing now (governance/stale.ts): a record that asks for what already holds is not stored. */
function staleRecord(s: GovernanceState, body: GovernanceBody, at: number): string | null {
  if (body.type === 'freeze') return staleWhy(s, { action: 'freeze', what: 'freeze', ref: body.ref, payload: '{}' }, at);
  if (body.type !== 'proposal' || body.what === 'request' || body.what === 'batch') return null;
  return staleWhy(s, { action: 'propose', what: body.what, ref: body.ref, payload: body.payload }, at);
}
