import { randomUUID } from 'node:crypto';
import { BatchPayload } from '../../../shared/api/batch.ts';
import { aRole, type Role } from '../../../shared/api/roles.ts';
import { Policy, type Verdict, type WriteFacts } from '../../../shared/api/policy.ts';
import type { PolicyReplay } from '../../../shared/api/replay.ts';
import type { OperatorKey } from '../operators/keys.ts';
import { containKind } from '../governance/management.ts';
import { staleWhy } from '../governance/stale.ts';
import { GovernanceError, withCoolingOff, type GovernanceState, type ProposalWhat, type RequestPayload } from '../governance/state.ts';
import type { ApprovalsParts } from './ledger.ts';
import type { PolicyCopy } from './policyCopy.ts';
import { wedgeOf } from './wedge.ts';

// Tickets: what waits for an operator's signature in the confirmation window. They are made from the
// main window (a draft, an approval or rejection, a proposed change, a freeze) and held in memory only;
// signing.ts signs them.

/** Something waiting for an operator's signature in the confirmation window, exactly as the core holds it. */
export interface Ticket {
  id: string;
  action: 'draft' | 'approve' | 'reject' | 'propose' | 'freeze';
  ref: string;
  what: ProposalWhat | 'freeze' | 'address_book' | 'team';
  profile?: string;
  /** Canonical JSON of what will be signed. */
  payload: string;
  reason?: string;
  title: string;
  created_at: number;
  /** A policy change's replay against the last 30 days, shown beside what is signed (not part of it). */
  replay?: PolicyReplay;
}

export interface DetachedSignature {
  operator: string;
  name: string;
  signature: string;
}

/** Completes a ticket whose signature governance does not fold: it gets a signer of exact texts. */
type Detached = (sign: (text: string) => Promise<DetachedSignature>) => Promise<unknown>;
/** Why a detached ticket's act would change nothing now (its entry is in the book already), or null. */
type DetachedStale = (s: GovernanceState) => string | null;
/** Completes a ticket an operator vouches for with their passphrase: it gets their key and the passphrase. */
type Vouched = (key: OperatorKey, passphrase: string) => Promise<unknown>;

const canonical = (v: unknown): string => JSON.stringify(v);

export interface TicketBookOptions extends ApprovalsParts {
  policy: PolicyCopy;
  /** A ticket now waits in the confirmation window for an operator's signature. */
  onTicket?: (t: Ticket) => void;
  /**
   * A ticket left the confirmation window: signed or declined (`withdrawn` false), or withdrawn because what
   * it asked for holds already or its request closed (true); `why` says which, in words.
   */
  onClosed?: (t: Ticket, outcome: { withdrawn: boolean; why: string }) => void;
}

/** A ticket taken out of the confirmation window, and why; the last few are shown there. */
export interface WithdrawnTicket {
  id: string;
  title: string;
  why: string;
  at: number;
}

const WITHDRAWN_KEPT = 20;

export class TicketBook {
  private readonly tickets = new Map<string, Ticket>();
  /** Tickets whose signature is kept outside the governance records, with what keeps it. */
  private readonly detached = new Map<string, Detached>();
  /** Tickets an operator vouches for with their passphrase (founding or joining a team), with what follows. */
  private readonly vouched = new Map<string, Vouched>();
  private readonly detachedStale = new Map<string, DetachedStale>();
  private withdrawnList: WithdrawnTicket[] = [];

  constructor(private readonly opts: TicketBookOptions) {}

  /** A ticket still waiting, and what completes it if it is vouched for or detached (signing.ts). */
  waiting(id: string): { ticket: Ticket; vouch?: Vouched; complete?: Detached } | null {
    const ticket = this.tickets.get(id);
    if (!ticket) return null;
    const vouch = this.vouched.get(id);
    const complete = this.detached.get(id);
    return { ticket, ...(vouch ? { vouch } : {}), ...(complete ? { complete } : {}) };
  }

  private ticket(t: Omit<Ticket, 'id' | 'created_at'>): Ticket {
    this.opts.ledger.writable();
    const full = { ...t, id: randomUUID(), created_at: this.opts.now() };
    this.tickets.set(full.id, full);
    this.opts.onTicket?.(full);
    return full;
  }

  /** Puts a policy change's replay beside its ticket, for the confirmation window. */
  annotate(id: string, replay: PolicyReplay): void {
    const t = this.tickets.get(id);
    if (t) t.replay = replay;
  }

  pendingTickets(): Ticket[] {
    return [...this.tickets.values()];
  }

  /** A ticket signed (signing.ts) or declined: it waits no more, and its notice is done. */
  close(id: string, why: string): void {
    const t = this.tickets.get(id);
    this.forget(id);
    if (t) this.opts.onClosed?.(t, { withdrawn: false, why });
  }

  private forget(id: string): void {
    this.tickets.delete(id);
    this.detached.delete(id);
    this.vouched.delete(id);
    this.detachedStale.delete(id);
  }

  /** Why signing the ticket would change nothing in `s`, or null (governance/stale.ts; a detached one asks its own). */
  staleWhy(t: Ticket, s: GovernanceState): string | null {
    const own = this.detachedStale.get(t.id);
    return own ? own(s) : staleWhy(s, t, this.opts.now());
  }

  /** Takes a ticket out of the window with why: it waits no more, and its notice is done. */
  withdraw(t: Ticket, why: string): void {
    this.forget(t.id);
    this.withdrawnList = [{ id: t.id, title: t.title, why, at: this.opts.now() }, ...this.withdrawnList].slice(0, WITHDRAWN_KEPT);
    this.opts.onClosed?.(t, { withdrawn: true, why });
  }

  /** Withdraws every waiting ticket whose act holds already or whose request is closed in `s`. */
  sweep(s: GovernanceState): void {
    for (const t of [...this.tickets.values()]) {
      const why = this.staleWhy(t, s);
      if (why) this.withdraw(t, why);
    }
  }

  /** The tickets withdrawn lately, the newest first. */
  withdrawn(): WithdrawnTicket[] {
    return this.withdrawnList;
  }

  /** A ticket withdrawn lately, by id: signing it is refused with why. */
  withdrawnOne(id: string): WithdrawnTicket | undefined {
    return this.withdrawnList.find((w) => w.id === id);
  }

  /**
   * A ticket for an act that needs an operator in force at this desk to vouch with their passphrase
   * (founding or joining a team): once it opens their key, `complete` gets the key and the passphrase.
   */
  vouchTicket(payload: string, title: string, complete: Vouched): Ticket {
    const t = this.ticket({ action: 'propose', ref: randomUUID(), what: 'team', payload, title });
    this.vouched.set(t.id, complete);
    return t;
  }

  /**
   * A ticket for an act an operator signs that governance does not fold (an address-book entry): when an
   * operator signs it, `complete` gets a signer of exact texts and keeps the signature where it belongs.
   */
  detachedTicket(what: 'address_book', payload: string, title: string, complete: Detached, stale: DetachedStale): Ticket {
    const t = this.ticket({ action: 'propose', ref: randomUUID(), what, payload, title });
    this.detached.set(t.id, complete);
    this.detachedStale.set(t.id, stale);
    return t;
  }

  async draftTicket(
    profile: string,
    ref: string,
    kind: string,
    body: Record<string, string | number>,
    verdict: Verdict,
    note?: string,
    signer?: string,
    facts?: WriteFacts,
  ): Promise<Ticket> {
    const st = await this.opts.policy.status(profile);
    if (st.refused) throw new GovernanceError(st.refused);
    if (verdict.decision === 'block')
      throw new GovernanceError(`the policy blocks this ${kind} (rule ${verdict.rule ?? 'none matched'}): it cannot be drafted.`);
    if ((await this.opts.ledger.load()).frozen && !containKind(kind))
      throw new GovernanceError('the desk is frozen: nothing is drafted until a quorum unfreezes it.');
    const payload: RequestPayload = {
      kind,
      body,
      ...(signer ? { signer } : {}),
      ...(note ? { note } : {}),
      verdict,
      ...(facts ? { facts } : {}),
    };
    return this.ticket({
      action: 'draft',
      ref,
      what: 'request',
      profile,
      payload: canonical(payload),
      title: `Draft a ${kind.replace(/_/g, ' ')}`,
    });
  }

  async draftBatchTicket(profile: string, ref: string, payload: BatchPayload): Promise<Ticket> {
    const st = await this.opts.policy.status(profile);
    if (st.refused) throw new GovernanceError(st.refused);
    if (payload.verdict.decision === 'block')
      throw new GovernanceError(`the policy blocks this batch (rule ${payload.verdict.rule ?? 'none matched'}): it cannot be drafted.`);
    if ((await this.opts.ledger.load()).frozen && !payload.rows.every((r) => containKind(r.kind)))
      throw new GovernanceError('the desk is frozen: nothing is drafted until a quorum unfreezes it.');
    return this.ticket({
      action: 'draft',
      ref,
      what: 'batch',
      profile,
      payload: canonical(BatchPayload.parse(payload)),
      title: `Draft ${payload.title}`,
    });
  }

  async decisionTicket(ref: string, action: 'approve' | 'reject', reason?: string): Promise<Ticket> {
    const p = (await this.opts.ledger.load()).proposals.get(ref);
    if (!p) throw new GovernanceError(`there is no request or change ${ref}.`);
    if (action === 'reject' && !reason) throw new GovernanceError('a rejection says why.');
    return this.ticket({
      action,
      ref,
      what: p.what,
      ...(p.profile ? { profile: p.profile } : {}),
      payload: p.payload,
      ...(reason ? { reason } : {}),
      title: `${action === 'approve' ? 'Approve' : 'Reject'} ${p.what === 'request' ? 'a request' : p.what === 'batch' ? (JSON.parse(p.payload) as BatchPayload).title : `a change (${p.what.replace(/_/g, ' ')})`}`,
    });
  }

  async policyTicket(profile: string, policy: Policy): Promise<Ticket> {
    const payload = withCoolingOff(Policy.parse(policy), this.opts.rules.coolingOffMs);
    // Refused here, on the page that proposes it, as well as when it is signed and stored.
    const wedge = wedgeOf(await this.opts.ledger.load(), this.opts.rules, 'policy', payload, profile, this.opts.now());
    if (wedge) throw new GovernanceError(wedge);
    return this.ticket({
      action: 'propose',
      ref: randomUUID(),
      what: 'policy',
      profile,
      payload,
      title: `Change the policy of profile ${profile}`,
    });
  }

  async removeOperatorTicket(id: string): Promise<Ticket> {
    const s = await this.opts.ledger.load();
    const op = s.operators.get(id);
    if (!op) throw new GovernanceError(`there is no operator ${id}.`);
    const payload = withCoolingOff({ id }, this.opts.rules.coolingOffMs);
    const wedge = wedgeOf(s, this.opts.rules, 'remove_operator', payload, undefined, this.opts.now());
    if (wedge) throw new GovernanceError(wedge);
    return this.ticket({ action: 'propose', ref: randomUUID(), what: 'remove_operator', payload, title: `Remove operator ${op.name}` });
  }

  /** Removing an address-book entry (deskApprovals checked it exists): the change quorum, no cooling-off. */
  removeAddressTicket(payload: string, title: string): Ticket {
    return this.ticket({ action: 'propose', ref: randomUUID(), what: 'remove_address', payload, title });
  }

  /** A role change: the change quorum, then the cooling-off, like adding or removing an operator. */
  async roleTicket(id: string, role: Role): Promise<Ticket> {
    const s = await this.opts.ledger.load();
    const op = s.operators.get(id);
    if (!op || op.removed_from !== null) throw new GovernanceError(`there is no operator ${id} in force to give a role.`);
    const payload = withCoolingOff({ id, role }, this.opts.rules.coolingOffMs);
    const wedge = wedgeOf(s, this.opts.rules, 'set_role', payload, undefined, this.opts.now());
    if (wedge) throw new GovernanceError(wedge);
    return this.ticket({ action: 'propose', ref: randomUUID(), what: 'set_role', payload, title: `Make ${op.name} ${aRole(role)}` });
  }

  unfreezeTicket(): Ticket {
    return this.ticket({ action: 'propose', ref: randomUUID(), what: 'unfreeze', payload: canonical({}), title: 'Unfreeze the desk' });
  }

  freezeTicket(reason: string): Ticket {
    return this.ticket({ action: 'freeze', ref: randomUUID(), what: 'freeze', payload: canonical({}), reason, title: 'Freeze the desk' });
  }
}
