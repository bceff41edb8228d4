import type { GovernanceBody, OperatorSignature } from '../journal/records.ts';
import { signAs, type OperatorKey } from '../operators/keys.ts';
import { applyGovernance } from '../governance/fold.ts';
import { activeAt, GovernanceError, textFor, type GovernanceState, type ProposalWhat } from '../governance/state.ts';
import { cloneState, type ApprovalsParts } from './ledger.ts';
import type { DetachedSignature, Ticket, TicketBook } from './tickets.ts';

// Signing in the confirmation window: an operator's passphrase opens their key, the ticket's record is
// signed and appended; a ticket vouched for or detached gets the opened key or a signer of exact texts
// instead; a freeze signed while a team store is offline is kept at this desk (the store posts it first).

export interface SigningOptions extends ApprovalsParts {
  tickets: TicketBook;
}

export class OperatorSigning {
  constructor(private readonly opts: SigningOptions) {}

  /** Signs a ticket as the operator (their passphrase opens their key) and stores the record. */
  async sign(ticketId: string, operator: string, passphrase: string): Promise<Ticket> {
    const waiting = this.opts.tickets.waiting(ticketId);
    if (!waiting) {
      const gone = this.opts.tickets.withdrawnOne(ticketId);
      if (gone) throw new GovernanceError(`"${gone.title}" was withdrawn: ${gone.why}. Nothing was signed and nothing changed.`);
      throw new GovernanceError('that confirmation is no longer waiting (it was signed, declined, or the desk restarted).');
    }
    const { ticket: t, vouch, complete } = waiting;
    // Checked before the passphrase opens a key: signing what holds already, or a closed request, changes nothing.
    const s = await this.opts.ledger.load().catch(() => this.opts.ledger.lastRead());
    const stale = s && this.opts.tickets.staleWhy(t, s);
    if (stale) {
      this.opts.tickets.withdraw(t, stale);
      throw new GovernanceError(`"${t.title}" was withdrawn: ${stale}. Nothing was signed and nothing changed.`);
    }
    if (vouch) {
      // The signature proves the operator is in force and the passphrase opens their key; what follows uses both.
      await this.signature(operator, passphrase, textFor('propose', t.ref, t.what, t.payload, ''));
      await vouch((await this.opts.store.operatorKey(operator))!, passphrase);
      this.opts.tickets.close(ticketId, 'signed');
      return t;
    }
    if (complete) {
      await complete((text) => this.signature(operator, passphrase, text));
      this.opts.tickets.close(ticketId, 'signed');
      return t;
    }
    const extra = t.action === 'reject' ? t.reason! : t.action === 'freeze' ? (t.reason ?? '') : (t.profile ?? '');
    if (t.action === 'freeze' && (await this.freezeOffline(t, operator, passphrase))) {
      this.opts.tickets.close(ticketId, 'signed');
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
    this.opts.tickets.close(ticketId, 'signed');
    return t;
  }

  /** Signs `action` on a record as the operator and appends the record `build` makes with the signature. */
  async signed(
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
    await this.opts.ledger.append(await build(ref, { action, operator, name, signature }));
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
      await this.opts.ledger.load();
      return false;
    } catch (e) {
      if ((e as Error).name !== 'TeamStoreOfflineError' || !this.opts.ledger.lastRead()) throw e;
    }
    const text = textFor('freeze', t.ref, 'freeze', t.payload, t.reason ?? '');
    const { name, signature } = await this.signature(operator, passphrase, text, this.opts.ledger.lastRead()!);
    const body: GovernanceBody = {
      type: 'freeze',
      ref: t.ref,
      reason: t.reason ?? '',
      signed: { action: 'freeze', operator, name, signature },
    };
    applyGovernance(cloneState(this.opts.ledger.lastRead()!), body, this.opts.now(), this.opts.rules);
    await keep(body);
    return true;
  }

  /** The operator's signature over `text`, if they are in force now and the passphrase opens their key. */
  private async signature(operator: string, passphrase: string, text: string, offline?: GovernanceState): Promise<DetachedSignature> {
    this.opts.ledger.writable();
    const s = offline ?? (await this.opts.ledger.load());
    const op = s.operators.get(operator);
    if (!op || !activeAt(op, this.opts.now()))
      throw new GovernanceError('that operator cannot sign now (unknown, removed, or not yet in force).');
    const key: OperatorKey | null = await this.opts.store.operatorKey(operator);
    if (!key) throw new GovernanceError(`${op.name}'s key is missing from the data folder.`);
    const signature = await signAs(key, passphrase, text);
    // The passphrase opened the key: on a shared store, it may vouch for this desk if none has yet.
    if (!offline) await this.opts.store.enrol?.(key, passphrase);
    return { operator, name: op.name, signature };
  }
}
