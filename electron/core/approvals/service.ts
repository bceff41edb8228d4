import { randomUUID } from 'node:crypto';
import { BatchPayload } from '../../../shared/api/batch.ts';
import { aRole, DEFAULT_ROLE, type Role } from '../../../shared/api/roles.ts';
import { DEFAULT_POLICY, Policy, type Verdict, type WriteFacts } from '../../../shared/api/policy.ts';
import type { PolicyReplay } from '../../../shared/api/replay.ts';
import type { GovernanceBody, OperatorSignature } from '../journal/records.ts';
import { checkEnrolmentFingerprint, enrolmentCode, enrolmentFingerprint, parseEnrolmentCode } from '../operators/enrolment.ts';
import { createOperatorKey, signAs, type OperatorKey } from '../operators/keys.ts';
import type { ScryptParams } from '../vault/crypto.ts';
import {
  activeAt,
  activeOperators,
  changeBody,
  GovernanceError,
  textFor,
  withCoolingOff,
  type GovernanceRules,
  type GovernanceState,
  type Proposal,
  type ProposalWhat,
  type RequestPayload,
} from '../governance/state.ts';
import { applyGovernance, foldGovernance } from '../governance/fold.ts';
import {
  countedApprovers,
  deskQuorum,
  policyInForce,
  quorumOf,
  stillApproved,
  expiresAt,
  isExpired,
  verdictAt,
} from '../governance/quorum.ts';
import { StoreConflictError, type GovernanceStore, type SendLeases, type StoreAudit } from './store.ts';
import { containKind, containOnly } from '../governance/management.ts';

/** How many times a signed record is placed again after other desks appended first, before the operator is asked to look again. */
const CONFLICT_ATTEMPTS = 5;
import { wedgedNow, wedgeOf, wedgeOfRecord } from './wedge.ts';

// What the desk does with governance: tickets waiting for a signature in the confirmation window,
// signing with an operator's passphrase, the policy in force per profile (and its copy on disk checked
// against the records), and which approved requests are ready to be sent.

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

/**
 * How a proposed operator's key comes to be: their passphrase here (a bare string too), or their enrolment
 * code from their own desk with the fingerprint they read to the proposer apart from it.
 */
export type NewOperatorKey = { passphrase: string } | { enrolment: string; fingerprint: string };

export interface PolicyStatus {
  policy: Policy;
  ref: string | null;
  /** Why the policy copy on disk is refused; while set, nothing governed is sent or drafted. */
  refused: string | null;
}

export interface ApprovalsOptions {
  store: GovernanceStore;
  rules: GovernanceRules;
  /** Whether this desk's first operator needs the vault's credential (false on a Sandbox-only desk). */
  credential: 'vault' | 'none';
  now?: () => number;
  scrypt?: ScryptParams;
  /** A ticket now waits in the confirmation window for an operator's signature. */
  onTicket?: (t: Ticket) => void;
  /**
   * Another desk changed the records of a shared store and they were read again (error: null), or the
   * read failed (a tampered row, the store unreachable): then nothing governed is sent until a read succeeds.
   */
  onRecordsChanged?: (error: Error | null) => void;
  /**
   * Why this desk signs nothing (an auditor desk): every ticket, signature and record is refused with it.
   * A function is asked each time: the active profile may be an auditor's (deskApprovals.ts).
   */
  readOnly?: string | (() => string | null);
}

const canonical = (v: unknown): string => JSON.stringify(v);

export interface DetachedSignature {
  operator: string;
  name: string;
  signature: string;
}

/** Batches the dispatcher sends row by row (a rebalance's rows are sent by its own runner). */
const DISPATCHED_BATCHES: ReadonlySet<string> = new Set(['payouts', 'small_balance']);

export class Approvals {
  private state: GovernanceState | null = null;
  /** The state last read whole, kept while the store cannot be reached: an offline freeze is signed against it. */
  private lastRead: GovernanceState | null = null;
  private readonly tickets = new Map<string, Ticket>();
  /** Tickets whose signature is kept outside the governance records, with what keeps it. */
  private readonly detached = new Map<string, (sign: (text: string) => Promise<DetachedSignature>) => Promise<unknown>>();
  /** Tickets an operator vouches for with their passphrase (founding or joining a team), with what follows. */
  private readonly vouched = new Map<string, (key: OperatorKey, passphrase: string) => Promise<unknown>>();
  private readonly refusedPolicy = new Map<string, string>();
  private readonly now: () => number;
  /** One change at a time in this process; the store's conflict check guards against other processes. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: ApprovalsOptions) {
    this.now = opts.now ?? Date.now;
    opts.store.subscribe?.(() => void this.reread());
  }

  /** Reads the records again after another desk's change; a read that fails leaves no state to send from. */
  private reread(): Promise<void> {
    return this.serial(async () => {
      try {
        this.state = this.lastRead = await this.readState();
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

  get credential(): 'vault' | 'none' {
    return this.opts.credential;
  }

  async load(): Promise<GovernanceState> {
    this.state ??= this.lastRead = await this.readState();
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

  /** Checks the record against the state first (on a copy), then stores it: a record that does not check is never stored. */
  private append(body: GovernanceBody, leased?: readonly string[]): Promise<void> {
    this.writable();
    return this.serial(async () => {
      // Another desk appending first moves the end, not what was signed (a signature names no position):
      // the record is checked again against the records as they now stand and appended there, or refused.
      for (let attempt = 1; ; attempt++) {
        const s = await this.load();
        const at = this.now();
        const wedge = wedgeOfRecord(s, this.opts.rules, body, at);
        if (wedge) throw new GovernanceError(wedge);
        const scratch = cloneState(s);
        applyGovernance(scratch, body, at, this.opts.rules);
        try {
          const store = this.opts.store;
          await (leased && store.handOver ? store.handOver(body, s.seq, leased) : store.append(body, s.seq));
        } catch (e) {
          if (!(e instanceof StoreConflictError) || attempt >= CONFLICT_ATTEMPTS) throw e;
          this.state = await this.readState();
          continue;
        }
        // Swapped whole, never left empty: the executor reads it synchronously at any moment.
        this.state = this.lastRead = await this.readState();
        return;
      }
    });
  }

  // ---- operators ----

  async createFirstOperator(name: string, passphrase: string): Promise<string> {
    this.writable();
    const s = await this.load();
    if (s.operators.size > 0)
      throw new GovernanceError('this desk has operators already; a new one is proposed by an operator and needs a quorum.');
    const key = await createOperatorKey(name, passphrase, this.now(), this.opts.scrypt);
    await this.opts.store.putOperatorKey(key);
    await this.opts.store.enrol?.(key, passphrase);
    const text = textFor('create', key.id, 'operator', canonical({ name, public_key: key.public_key }));
    const signature = await signAs(key, passphrase, text);
    await this.append({
      type: 'operator_created',
      ref: key.id,
      name,
      public_key: key.public_key,
      credential: this.opts.credential,
      signed: { action: 'create', operator: key.id, name, signature },
    });
    return key.id;
  }

  /**
   * The new operator's key: made here from their passphrase, or made at their own desk (makeOwnKey) and
   * named by its enrolment code, so that its private half never leaves that desk. The proposer signs the
   * proposal; it takes effect after a quorum and the cooling-off.
   */
  async proposeOperator(
    name: string,
    newKey: NewOperatorKey | string,
    by: string,
    passphrase: string,
    role: Role = DEFAULT_ROLE,
  ): Promise<string> {
    const s = await this.load();
    if ([...s.operators.values()].some((o) => o.name === name && o.removed_from === null))
      throw new GovernanceError(`there is an operator named ${name} already.`);
    const made = typeof newKey === 'string' ? { passphrase: newKey } : newKey;
    const sealed = 'passphrase' in made ? await createOperatorKey(name, made.passphrase, this.now(), this.opts.scrypt) : null;
    let key: { id: string; public_key: string };
    if (sealed) key = sealed;
    else {
      const { enrolment, fingerprint } = made as { enrolment: string; fingerprint: string };
      key = parseEnrolmentCode(enrolment);
      checkEnrolmentFingerprint(key.public_key, fingerprint);
    }
    for (const o of s.operators.values()) {
      if (o.public_key === key.public_key)
        throw new GovernanceError(`that public key is ${o.name}'s already; each operator makes their own.`);
      if (o.id === key.id) throw new GovernanceError(`operator id ${key.id} is ${o.name}'s already; each operator makes their own key.`);
    }
    // The role is part of what the proposer signs: nobody changes it on the way to the record.
    const payload = withCoolingOff({ id: key.id, name, public_key: key.public_key, role }, this.opts.rules.coolingOffMs);
    await this.signed(by, passphrase, 'propose', randomUUID(), 'add_operator', payload, '', async (ref, signed) => {
      if (sealed) await this.opts.store.putOperatorKey(sealed);
      return { type: 'proposal', ref, what: 'add_operator', payload, signed };
    });
    return key.id;
  }

  /**
   * A key for an operator still to be proposed, kept at this desk; its enrolment code goes to the proposing
   * desk, its fingerprint is read to the proposer apart from the code.
   */
  async makeOwnKey(name: string, passphrase: string): Promise<{ id: string; enrolment: string; fingerprint: string }> {
    this.writable();
    const key = await createOperatorKey(name, passphrase, this.now(), this.opts.scrypt);
    await this.opts.store.putOperatorKey(key);
    return { id: key.id, enrolment: enrolmentCode(key), fingerprint: enrolmentFingerprint(key.public_key) };
  }

  // ---- tickets (made from the main window, signed only in the confirmation window) ----

  /** Throws on an auditor desk, before anything is asked of an operator. */
  private writable(): void {
    const why = this.readOnly;
    if (why) throw new GovernanceError(why);
  }

  /** Why this desk signs nothing, or null. */
  get readOnly(): string | null {
    const r = this.opts.readOnly;
    return (typeof r === 'function' ? r() : r) ?? null;
  }

  private ticket(t: Omit<Ticket, 'id' | 'created_at'>): Ticket {
    this.writable();
    const full = { ...t, id: randomUUID(), created_at: this.now() };
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

  decline(id: string): void {
    this.tickets.delete(id);
    this.detached.delete(id);
    this.vouched.delete(id);
  }

  /**
   * A ticket for an act that needs an operator in force at this desk to vouch with their passphrase
   * (founding or joining a team): once it opens their key, `complete` gets the key and the passphrase.
   */
  vouchTicket(payload: string, title: string, complete: (key: OperatorKey, passphrase: string) => Promise<unknown>): Ticket {
    const t = this.ticket({ action: 'propose', ref: randomUUID(), what: 'team', payload, title });
    this.vouched.set(t.id, complete);
    return t;
  }

  /**
   * A ticket for an act an operator signs that governance does not fold (an address-book entry): when an
   * operator signs it, `complete` gets a signer of exact texts and keeps the signature where it belongs.
   */
  detachedTicket(
    what: 'address_book',
    payload: string,
    title: string,
    complete: (sign: (text: string) => Promise<DetachedSignature>) => Promise<unknown>,
  ): Ticket {
    const t = this.ticket({ action: 'propose', ref: randomUUID(), what, payload, title });
    this.detached.set(t.id, complete);
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
    const st = await this.policyStatus(profile);
    if (st.refused) throw new GovernanceError(st.refused);
    if (verdict.decision === 'block')
      throw new GovernanceError(`the policy blocks this ${kind} (rule ${verdict.rule ?? 'none matched'}): it cannot be drafted.`);
    if ((await this.load()).frozen && !containKind(kind))
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
    const st = await this.policyStatus(profile);
    if (st.refused) throw new GovernanceError(st.refused);
    if (payload.verdict.decision === 'block')
      throw new GovernanceError(`the policy blocks this batch (rule ${payload.verdict.rule ?? 'none matched'}): it cannot be drafted.`);
    if ((await this.load()).frozen && !payload.rows.every((r) => containKind(r.kind)))
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
    const p = (await this.load()).proposals.get(ref);
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
    const wedge = wedgeOf(await this.load(), this.opts.rules, 'policy', payload, profile, this.now());
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
    const s = await this.load();
    const op = s.operators.get(id);
    if (!op) throw new GovernanceError(`there is no operator ${id}.`);
    const payload = withCoolingOff({ id }, this.opts.rules.coolingOffMs);
    const wedge = wedgeOf(s, this.opts.rules, 'remove_operator', payload, undefined, this.now());
    if (wedge) throw new GovernanceError(wedge);
    return this.ticket({ action: 'propose', ref: randomUUID(), what: 'remove_operator', payload, title: `Remove operator ${op.name}` });
  }

  /** Removing an address-book entry (deskApprovals checked it exists): the change quorum, no cooling-off. */
  removeAddressTicket(payload: string, title: string): Ticket {
    return this.ticket({ action: 'propose', ref: randomUUID(), what: 'remove_address', payload, title });
  }

  /** A role change: the change quorum, then the cooling-off, like adding or removing an operator. */
  async roleTicket(id: string, role: Role): Promise<Ticket> {
    const s = await this.load();
    const op = s.operators.get(id);
    if (!op || op.removed_from !== null) throw new GovernanceError(`there is no operator ${id} in force to give a role.`);
    const payload = withCoolingOff({ id, role }, this.opts.rules.coolingOffMs);
    const wedge = wedgeOf(s, this.opts.rules, 'set_role', payload, undefined, this.now());
    if (wedge) throw new GovernanceError(wedge);
    return this.ticket({ action: 'propose', ref: randomUUID(), what: 'set_role', payload, title: `Make ${op.name} ${aRole(role)}` });
  }

  /** Why the desk is wedged now (nobody can reach a quorum the policy in force asks), or null. */
  async wedged(): Promise<string | null> {
    return wedgedNow(await this.load(), this.opts.rules, this.now());
  }

  /**
   * Starts a recovery of a wedged desk (the caller checked the credential): the desk is frozen at once;
   * after the cooling-off the default policy is in force and every operator an admin.
   */
  async recover(reason: string): Promise<{ effective_at: number }> {
    const s = await this.load();
    const now = this.now();
    if (s.recovery && s.recovery.effective_at > now)
      throw new GovernanceError(`a recovery is under way already; it takes effect ${new Date(s.recovery.effective_at).toISOString()}.`);
    const why = wedgedNow(s, this.opts.rules, now);
    if (!why) throw new GovernanceError('the desk is not wedged: its operators can reach every quorum, so changes go through them.');
    const cooling = Math.max(this.opts.rules.coolingOffMs, this.opts.rules.minCoolingOffMs ?? 0);
    await this.append({ type: 'recovery', ref: randomUUID(), credential: this.opts.credential, reason, cooling_off_ms: cooling });
    return { effective_at: now + cooling };
  }

  unfreezeTicket(): Ticket {
    return this.ticket({ action: 'propose', ref: randomUUID(), what: 'unfreeze', payload: canonical({}), title: 'Unfreeze the desk' });
  }

  freezeTicket(reason: string): Ticket {
    return this.ticket({ action: 'freeze', ref: randomUUID(), what: 'freeze', payload: canonical({}), reason, title: 'Freeze the desk' });
  }

  /** Signs a ticket as the operator (their passphrase opens their key) and stores the record. */
  async sign(ticketId: string, operator: string, passphrase: string): Promise<Ticket> {
    const t = this.tickets.get(ticketId);
    if (!t) throw new GovernanceError('that confirmation is no longer waiting (it was signed, declined, or the desk restarted).');
    const vouch = this.vouched.get(ticketId);
    if (vouch) {
      // The signature proves the operator is in force and the passphrase opens their key; what follows uses both.
      await this.signature(operator, passphrase, textFor('propose', t.ref, t.what, t.payload, ''));
      await vouch((await this.opts.store.operatorKey(operator))!, passphrase);
      this.vouched.delete(ticketId);
      this.tickets.delete(ticketId);
      return t;
    }
    const complete = this.detached.get(ticketId);
    if (complete) {
      await complete((text) => this.signature(operator, passphrase, text));
      this.detached.delete(ticketId);
      this.tickets.delete(ticketId);
      return t;
    }
    const extra = t.action === 'reject' ? t.reason! : t.action === 'freeze' ? (t.reason ?? '') : (t.profile ?? '');
    if (t.action === 'freeze' && (await this.freezeOffline(t, operator, passphrase))) {
      this.tickets.delete(ticketId);
      return t;
    }
    await this.signed(
      operator,
      passphrase,
      t.action === 'draft' ? 'propose' : t.action,
      t.ref,
      t.what,
      t.payload,
      extra,
      async (ref, signed) => {
        switch (t.action) {
          case 'draft':
          case 'propose':
            return {
              type: 'proposal',
              ref,
              what: t.what as ProposalWhat,
              ...(t.profile ? { profile: t.profile } : {}),
              payload: t.payload,
              signed: { ...signed, action: t.action },
            };
          case 'approve':
            return { type: 'signoff', ref, signed };
          case 'reject':
            return { type: 'rejection', ref, reason: t.reason!, signed };
          case 'freeze':
            return { type: 'freeze', ref, reason: t.reason ?? '', signed };
        }
      },
    );
    this.tickets.delete(ticketId);
    return t;
  }

  private async signed(
    operator: string,
    passphrase: string,
    action: OperatorSignature['action'],
    ref: string,
    what: string,
    payload: string,
    extra: string,
    build: (ref: string, signed: OperatorSignature) => Promise<GovernanceBody>,
  ): Promise<void> {
    const { name, signature } = await this.signature(operator, passphrase, textFor(action, ref, what, payload, extra));
    await this.append(await build(ref, { action, operator, name, signature }));
  }

  /**
   * A freeze signed while the shared store cannot be reached: the operator is checked against the records
   * last read, and the store keeps it at this desk and posts it first when it is reached again, before any
   * state is read from it (so nothing is sent from a state without it). False when the store is reachable.
   */
  private async freezeOffline(t: Ticket, operator: string, passphrase: string): Promise<boolean> {
    const keep = this.opts.store.keepFreeze?.bind(this.opts.store);
    if (!keep) return false;
    try {
      await this.load();
      return false;
    } catch (e) {
      if ((e as Error).name !== 'TeamStoreOfflineError' || !this.lastRead) throw e;
    }
    const text = textFor('freeze', t.ref, 'freeze', t.payload, t.reason ?? '');
    const { name, signature } = await this.signature(operator, passphrase, text, this.lastRead);
    const body: GovernanceBody = {
      type: 'freeze',
      ref: t.ref,
      reason: t.reason ?? '',
      signed: { action: 'freeze', operator, name, signature },
    };
    applyGovernance(cloneState(this.lastRead), body, this.now(), this.opts.rules);
    await keep(body);
    return true;
  }

  /** The operator's signature over `text`, if they are in force now and the passphrase opens their key. */
  private async signature(operator: string, passphrase: string, text: string, offline?: GovernanceState): Promise<DetachedSignature> {
    this.writable();
    const s = offline ?? (await this.load());
    const op = s.operators.get(operator);
    if (!op || !activeAt(op, this.now()))
      throw new GovernanceError('that operator cannot sign now (unknown, removed, or not yet in force).');
    const key: OperatorKey | null = await this.opts.store.operatorKey(operator);
    if (!key) throw new GovernanceError(`${op.name}'s key is missing from the data folder.`);
    const signature = await signAs(key, passphrase, text);
    // The passphrase opened the key: on a shared store, it may vouch for this desk if none has yet.
    if (!offline) await this.opts.store.enrol?.(key, passphrase);
    return { operator, name: op.name, signature };
  }

  // ---- policy ----

  /**
   * The policy in force is the one the records say; the file on disk is a copy. A copy that differs
   * from the records was changed outside the desk: it is refused, and governed writes stop until a
   * quorum approves a new policy (which rewrites the copy).
   */
  async policyStatus(profile: string): Promise<PolicyStatus> {
    const { policy, ref } = policyInForce(await this.load(), profile, this.now());
    const text = `${JSON.stringify({ ref, policy }, null, 2)}\n`;
    const onDisk = await this.opts.store.readPolicyFile(profile);
    const refusedFor = this.refusedPolicy.get(profile);
    if (refusedFor !== undefined && refusedFor === String(ref)) {
      return {
        policy,
        ref,
        refused:
          'The policy file on disk was changed outside the desk, so it is refused. Nothing governed is sent until operators approve a policy again (Approvals page, Policy).',
      };
    }
    if (onDisk === null || (refusedFor !== undefined && refusedFor !== String(ref)) || this.olderCopy(onDisk, ref)) {
      await this.opts.store.writePolicyFile(profile, text);
      this.refusedPolicy.delete(profile);
      return { policy, ref, refused: null };
    }
    if (onDisk !== text) {
      this.refusedPolicy.set(profile, String(ref));
      return this.policyStatus(profile);
    }
    return { policy, ref, refused: null };
  }

  /** A copy written for an earlier policy the records know, unchanged: the desk rewrites it. */
  private olderCopy(onDisk: string, ref: string | null): boolean {
    let parsed: { ref?: unknown; policy?: unknown };
    try {
      parsed = JSON.parse(onDisk) as typeof parsed;
    } catch {
      return false;
    }
    if (parsed.ref === ref) return false;
    const known = typeof parsed.ref === 'string' ? this.state?.proposals.get(parsed.ref) : undefined;
    const expected =
      parsed.ref === null ? canonical(DEFAULT_POLICY) : known?.what === 'policy' ? canonical(changeBody(known.payload).body) : null;
    return expected !== null && canonical(parsed.policy) === expected;
  }

  // ---- requests ready to send ----

  /**
   * Approved requests and payout batches of a profile not yet wholly handed to its journal, oldest
   * first. Rebalance batches are not among them: their runner sends each transfer when it is due.
   */
  async readyToSend(profile: string): Promise<Proposal[]> {
    const s = await this.load();
    const dispatchable = (p: Proposal): boolean =>
      p.what === 'request' || (p.what === 'batch' && DISPATCHED_BATCHES.has((JSON.parse(p.payload) as BatchPayload).batch));
    return (
      [...s.proposals.values()]
        .filter((p) => dispatchable(p) && p.profile === profile && p.approved_at !== null && !p.dispatched && !p.rejected)
        // A frozen desk hands over containment only (governance/management.ts).
        .filter((p) => !s.frozen || containOnly(p))
        // On a shared store the desk that drafted a request sends it: the others only sign.
        .filter((p) => this.opts.store.writtenHere?.(p.drafted_seq + 1) ?? true)
        // Judged again at hand-over: one the policy in force now asks more of waits for more approvals.
        .filter((p) => stillApproved(s, p, this.opts.rules, this.now()))
        .sort((a, b) => a.approved_at! - b.approved_at!)
    );
  }

  /** On a shared store, `leased` names the writes whose send lease this desk takes with the record. */
  async markDispatched(ref: string, profile: string, leased?: readonly string[]): Promise<void> {
    await this.append({ type: 'dispatched', ref, profile }, leased);
  }

  /** On a shared store, where a request was drafted and signed, and this desk's name; null alone. */
  desks(ref: string): { drafted: string | null; signed: Map<string, string>; here: string | null } | null {
    const store = this.opts.store;
    return store.desksOf ? { ...store.desksOf(ref), here: store.deskName?.() ?? null } : null;
  }

  /** The shared store's send leases, or null for a store only this desk writes. */
  /** On a shared store, Verify of its records afresh (team/pgStore.ts audit()); null on this desk's own store. */
  audit(): Promise<StoreAudit> | null {
    return this.opts.store.audit ? this.opts.store.audit() : null;
  }

  get leases(): SendLeases | null {
    return this.opts.store.handOver ? (this.opts.store.leases ?? null) : null;
  }

  /** The signatures of a request, drafter first, for its intent in the profile's journal. */
  signaturesOf(p: Proposal): OperatorSignature[] {
    return [p.drafted_by, ...p.signoffs.map((x) => x.signed)];
  }

  quorum(p: Proposal): { needed: number; approvers: string[] } {
    const q = quorumOf(this.state!, p, this.opts.rules, this.now());
    return { needed: q.needed, approvers: countedApprovers(p, q.drafterCounts) };
  }

  /** Whether an approved request still has the approvals the policy in force now asks. */
  stillApproved(p: Proposal): boolean {
    return stillApproved(this.state!, p, this.opts.rules, this.now());
  }

  /** When a request or batch expires unapproved (null for changes), and whether it has. */
  expiry(p: Proposal): { at: number | null; expired: boolean } {
    return { at: expiresAt(this.state!, p), expired: isExpired(this.state!, p, this.now()) };
  }

  /** A request's or batch's verdict now: the stricter of its drafter's and the policy in force. */
  verdictNow(p: Proposal): Verdict {
    return verdictAt(this.state!, p, this.now());
  }

  changeQuorum(): number {
    return deskQuorum(this.state!, this.opts.rules, this.now());
  }

  /** The operators in force by the records last read, while the store cannot be reached; null if none were read. */
  operatorsLastRead(): { id: string; name: string }[] | null {
    return this.lastRead ? activeOperators(this.lastRead, this.now()).map((o) => ({ id: o.id, name: o.name })) : null;
  }

  activeOperators(): { id: string; name: string }[] {
    return activeOperators(this.state!, this.now()).map((o) => ({ id: o.id, name: o.name }));
  }
}

function cloneState(s: GovernanceState): GovernanceState {
  return structuredClone(s);
}
