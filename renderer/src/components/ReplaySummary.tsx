import type { PolicyReplay, ReplayDecision } from '../../../shared/api/replay.ts';
import { dateTime, dayOf } from './localTime.ts';

// What a proposed policy would have done with the last 30 days: shown under the policy editor before it
// is proposed, and in the confirmation window beside the change each operator signs.

function decisionWords(d: ReplayDecision): string {
  const rule = d.rule ? ` (${d.rule})` : ' (no rule matches)';
  if (d.decision === 'allow') return `allowed${rule}`;
  if (d.decision === 'block') return `blocked${rule}`;
  return `${d.approvals} approval${d.approvals === 1 ? '' : 's'}${rule}`;
}

export function ReplaySummary({ replay }: { replay: PolicyReplay }) {
  const total = replay.counted.desk + replay.counted.exchange;
  return (
    <section aria-label="What this policy would have done" data-testid="policy-replay">
      <h3>What this policy would have done</h3>
      <p className="small">
        Replayed against {total} request{total === 1 ? '' : 's'} from {dayOf(replay.from)} to {dayOf(replay.to)}: {replay.counted.desk}{' '}
        drafted on this desk (as signed, with what the desk knew then) and {replay.counted.exchange} withdrawal
        {replay.counted.exchange === 1 ? '' : 's'} the exchange lists that this desk did not send.
      </p>
      <table className="table compact">
        <thead>
          <tr>
            <th>Rule</th>
            <th className="num">Allowed</th>
            <th className="num">Held for approvals</th>
            <th className="num">Blocked</th>
          </tr>
        </thead>
        <tbody>
          {replay.rules.map((r) => (
            <tr key={r.rule ?? '(none)'} data-rule={r.rule ?? ''}>
              <td className="mono">{r.rule ?? '(no rule matches: blocked)'}</td>
              <td className="num">{r.allowed}</td>
              <td className="num">{r.held}</td>
              <td className="num">{r.blocked}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small" data-testid="replay-changed">
        {replay.changed_total === 0
          ? 'No request would have been decided differently than under the policy in force.'
          : `${replay.changed_total} request${replay.changed_total === 1 ? '' : 's'} would have been decided differently than under the policy in force${replay.changed_total > replay.changed.length ? ` (the newest ${replay.changed.length} listed)` : ''}:`}
      </p>
      {replay.changed.length > 0 && (
        <ul className="small replay-changed">
          {replay.changed.map((c, i) => (
            <li key={i}>
              {dateTime(c.at)}: {c.summary}: {decisionWords(c.before)} → <strong>{decisionWords(c.after)}</strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
