import { BatchPayload } from '../../../shared/api/batch.ts';
import type { Policy } from '../../../shared/api/policy.ts';
import { REPLAY_DAYS, type PolicyReplay } from '../../../shared/api/replay.ts';
import type { RequestPayload } from '../governance/state.ts';
import { replayPolicy, type ReplayItem } from '../policy/replay.ts';
import type { DomainGovernance } from './domains.ts';
import type { Reviewer } from './review.ts';
import { summarize } from './summary.ts';

// "What would this policy have done": a policy judged against the active profile's last 30 days, beside
// the policy in force, from the facts each request was signed with (policy/replay.ts). Nothing is stored.

export interface PolicyReplayerOptions {
  domains: DomainGovernance;
  reviewer: Reviewer;
  now: () => number;
}

export class PolicyReplayer {
  private readonly now: () => number;

  constructor(private readonly opts: PolicyReplayerOptions) {
    this.now = opts.now;
  }

  /**
   * "What would this policy have done": the last 30 days of this profile's requests and batch rows, as
   * signed with the facts the desk knew, and `exchange` (withdrawals the exchange lists that this desk did
   * not send), judged by `policy` beside the policy in force. Nothing is stored.
   */
  async replay(policy: Policy, exchange: ReadonlyArray<{ at: number; wire: Record<string, string> }>): Promise<PolicyReplay> {
    const { approvals, session } = this.opts.domains.forActive();
    const s = await approvals.load();
    const to = this.now();
    const from = to - REPLAY_DAYS * 86_400_000;
    const items: ReplayItem[] = [];
    for (const p of s.proposals.values()) {
      if ((p.what !== 'request' && p.what !== 'batch') || p.profile !== session.id || p.drafted_at < from) continue;
      if (p.what === 'request') {
        const req = JSON.parse(p.payload) as RequestPayload;
        // Requests drafted before facts were signed cannot be judged again as they were: left out.
        if (req.facts)
          items.push({
            at: p.drafted_at,
            source: 'desk',
            summary: summarize(p, req),
            row: { kind: req.kind, body: req.body, facts: req.facts },
          });
        continue;
      }
      const b = BatchPayload.parse(JSON.parse(p.payload));
      b.rows.forEach((row, i) => {
        const facts = b.facts?.[i];
        if (facts)
          items.push({
            at: p.drafted_at,
            source: 'desk',
            summary: `${b.title}, row ${i + 1}: ${summarize(p, { kind: row.kind, body: row.body, verdict: b.verdict })}`,
            row: { kind: row.kind, body: row.body, facts },
          });
      });
    }
    const recent = exchange.filter((w) => w.at >= from);
    const facts = await this.opts.reviewer.withdrawalFacts(
      session,
      recent.map((w) => w.wire),
    );
    recent.forEach(({ at, wire: w }, i) =>
      items.push({
        at,
        source: 'exchange',
        summary: `${w.amount} ${w.currency} to ${w.address} on ${w.chain}, not sent by this desk`,
        row: { kind: 'withdrawal', body: { currency: String(w.currency), amount: String(w.amount) }, facts: facts[i]! },
      }),
    );
    return replayPolicy(policy, (await approvals.policyStatus(session.id)).policy, items, from, to);
  }
}
