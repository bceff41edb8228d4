import { DEFAULT_POLICY, type Policy } from '../../../shared/api/policy.ts';
import { policyInForce } from '../governance/quorum.ts';
import { changeBody } from '../governance/state.ts';
import type { ApprovalsParts } from './ledger.ts';

// The policy in force per profile, as the records say, and its copy on disk for people to read: a copy
// changed outside the desk is refused, and nothing governed is sent or drafted until a quorum approves a
// policy again (which rewrites the copy).

export interface PolicyStatus {
  policy: Policy;
  ref: string | null;
  /** Why the policy copy on disk is refused; while set, nothing governed is sent or drafted. */
  refused: string | null;
}

const canonical = (v: unknown): string => JSON.stringify(v);

export class PolicyCopy {
  private readonly refusedPolicy = new Map<string, string>();

  constructor(private readonly opts: ApprovalsParts) {}

  /**
   * The policy in force is the one the records say; the file on disk is a copy. A copy that differs
   * from the records was changed outside the desk: it is refused, and governed writes stop until a
   * quorum approves a new policy (which rewrites the copy).
   */
  async status(profile: string): Promise<PolicyStatus> {
    const { policy, ref } = policyInForce(await this.opts.ledger.load(), profile, this.opts.now());
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
      return this.status(profile);
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
    const known = typeof parsed.ref === 'string' ? this.opts.ledger.cached()?.proposals.get(parsed.ref) : undefined;
    const expected =
      parsed.ref === null ? canonical(DEFAULT_POLICY) : known?.what === 'policy' ? canonical(changeBody(known.payload).body) : null;
    return expected !== null && canonical(parsed.policy) === expected;
  }
}
