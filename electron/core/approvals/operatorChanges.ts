import { randomUUID } from 'node:crypto';
import { DEFAULT_ROLE, type Role } from '../../../shared/api/roles.ts';
import { checkEnrolmentFingerprint, enrolmentCode, enrolmentFingerprint, parseEnrolmentCode } from '../operators/enrolment.ts';
import { createOperatorKey, signAs } from '../operators/keys.ts';
import type { ScryptParams } from '../vault/crypto.ts';
import { GovernanceError, textFor, withCoolingOff } from '../governance/state.ts';
import type { ApprovalsParts } from './ledger.ts';
import type { OperatorSigning } from './signing.ts';
import { wedgedNow } from './wedge.ts';

// Who the operators are: the first one (their own signature, the vault's credential checked by the
// caller), each later one proposed by an operator with a key made here or at their own desk, and the
// recovery of a desk whose operators can no longer reach a quorum.

/**
 * How a proposed operator's key comes to be: their passphrase here (a bare string too), or their enrolment
 * code from their own desk with the fingerprint they read to the proposer apart from it.
 */
export type NewOperatorKey = { passphrase: string } | { enrolment: string; fingerprint: string };

export interface OperatorChangesOptions extends ApprovalsParts {
  signing: OperatorSigning;
  /** Whether this desk's first operator needs the vault's credential (false on a Sandbox-only desk). */
  credential: 'vault' | 'none';
  scrypt?: ScryptParams;
}

const canonical = (v: unknown): string => JSON.stringify(v);

export class OperatorChanges {
  constructor(private readonly opts: OperatorChangesOptions) {}

  async createFirstOperator(name: string, passphrase: string): Promise<string> {
    this.opts.ledger.writable();
    const s = await this.opts.ledger.load();
    if (s.operators.size > 0)
      throw new GovernanceError('this desk has operators already; a new one is proposed by an operator and needs a quorum.');
    const key = await createOperatorKey(name, passphrase, this.opts.now(), this.opts.scrypt);
    await this.opts.store.putOperatorKey(key);
    await this.opts.store.enrol?.(key, passphrase);
    const text = textFor('create', key.id, 'operator', canonical({ name, public_key: key.public_key }));
    const signature = await signAs(key, passphrase, text);
    await this.opts.ledger.append({
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
    const s = await this.opts.ledger.load();
    if ([...s.operators.values()].some((o) => o.name === name && o.removed_from === null))
      throw new GovernanceError(`there is an operator named ${name} already.`);
    const made = typeof newKey === 'string' ? { passphrase: newKey } : newKey;
    const sealed = 'passphrase' in made ? await createOperatorKey(name, made.passphrase, this.opts.now(), this.opts.scrypt) : null;
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
    await this.opts.signing.signed(by, passphrase, 'propose', randomUUID(), 'add_operator', payload, '', async (ref, signed) => {
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
    this.opts.ledger.writable();
    const key = await createOperatorKey(name, passphrase, this.opts.now(), this.opts.scrypt);
    await this.opts.store.putOperatorKey(key);
    return { id: key.id, enrolment: enrolmentCode(key), fingerprint: enrolmentFingerprint(key.public_key) };
  }

  /** Why the desk is wedged now (nobody can reach a quorum the policy in force asks), or null. */
  async wedged(): Promise<string | null> {
    return wedgedNow(await this.opts.ledger.load(), this.opts.rules, this.opts.now());
  }

  /**
   * Starts a recovery of a wedged desk (the caller checked the credential): the desk is frozen at once;
   * after the cooling-off the default policy is in force and every operator an admin.
   */
  async recover(reason: string): Promise<{ effective_at: number }> {
    const s = await this.opts.ledger.load();
    const now = this.opts.now();
    if (s.recovery && s.recovery.effective_at > now)
      throw new GovernanceError(`a recovery is under way already; it takes effect ${new Date(s.recovery.effective_at).toISOString()}.`);
    const why = wedgedNow(s, this.opts.rules, now);
    if (!why) throw new GovernanceError('the desk is not wedged: its operators can reach every quorum, so changes go through them.');
    const cooling = Math.max(this.opts.rules.coolingOffMs, this.opts.rules.minCoolingOffMs ?? 0);
    await this.opts.ledger.append({
      type: 'recovery',
      ref: randomUUID(),
      credential: this.opts.credential,
      reason,
      cooling_off_ms: cooling,
    });
    return { effective_at: now + cooling };
  }
}
