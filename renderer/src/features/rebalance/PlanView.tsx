import type { RebalancePlan } from '../../../../shared/rebalance.ts';
import { accountName, keyOf } from './targets.ts';
import { timeOfDay } from '../../components/localTime.ts';

// The plan as it will run, before anything moves: each transfer with its hops, every account's balance
// before and after, what moves in all, and how long §8.2's limits make it take at the least.

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

function targetText(t: RebalancePlan['accounts'][number]['target']): string {
  if (t.type === 'amount') return t.amount;
  if (t.type === 'share') return `share ${t.share}`;
  if (t.type === 'remainder') return 'takes the remainder';
  return `band ${t.floor ?? '0'} to ${t.ceiling ?? 'no ceiling'}`;
}

/** The account that ends with what the other targets leave, said by name with what it ends with. */
function RemainderLine({ plan }: { plan: RebalancePlan }) {
  const rest = plan.accounts.find((a) => a.target.type === 'remainder');
  if (!rest) return null;
  return (
    <p data-testid="takes-remainder">
      {accountName(rest.account)} takes the remainder: it ends with {rest.after} {plan.currency}.
    </p>
  );
}

export function PlanView({ plan }: { plan: RebalancePlan }) {
  const c = plan.currency;
  if (plan.unreachable.length) {
    return (
      <section className="card" aria-label="Plan" data-testid="plan">
        <h2>These targets cannot all be met</h2>
        <p>Nothing is planned in part. Change these targets, or the accounts in scope:</p>
        <ul data-testid="unreachable">
          {plan.unreachable.map((u) => (
            <li key={keyOf(u.account)}>
              {accountName(u.account)}:{' '}
              {u.problem === 'short' ? `stays short of its target by ${u.by} ${c}` : `stays above its ceiling by ${u.by} ${c}`}
            </li>
          ))}
        </ul>
        <p className="small muted">
          The accounts in scope hold {plan.total} {c} in all.
        </p>
      </section>
    );
  }
  return (
    <section className="card" aria-label="Plan" data-testid="plan">
      <h2>
        Plan: {plan.transfers.length} transfer{plan.transfers.length === 1 ? '' : 's'} moving {plan.moved} {c}
      </h2>
      <p data-testid="plan-summary">
        {plan.requests} request{plan.requests === 1 ? '' : 's'} to send
        {plan.extraHops ? `, of which ${plan.extraHops} extra hop${plan.extraHops === 1 ? '' : 's'} through a spot account` : ''} (at most{' '}
        {plan.bound} transfers for this many accounts). Expected time under the rate limits: at least {duration(plan.expectedSeconds)}.{' '}
        Balances read {timeOfDay(plan.read_at)}.
      </p>
      <RemainderLine plan={plan} />
      {plan.remainder !== '0' && (
        <p data-testid="remainder">
          Shares are rounded down to 8 decimals: {plan.remainder} {c} stays where it already is.
        </p>
      )}
      {plan.transfers.length === 0 && <p>Every account is at its target already: nothing to move.</p>}
      {plan.transfers.length > 0 && (
        <table className="table" data-testid="plan-transfers">
          <thead>
            <tr>
              <th>#</th>
              <th>From</th>
              <th>To</th>
              <th className="num">Amount</th>
              <th>Requests</th>
            </tr>
          </thead>
          <tbody>
            {plan.transfers.map((t, i) => (
              <tr key={i}>
                <td>{i + 1}</td>
                <td>{accountName(t.from)}</td>
                <td>{accountName(t.to)}</td>
                <td className="num">
                  {t.amount} {c}
                </td>
                <td className="small">
                  {t.legs.length === 1 ? (
                    'direct'
                  ) : (
                    <>
                      {t.legs.length} hops (+{t.legs.length - 1}):{' '}
                      {t.legs
                        .map((l) => accountName(l.to))
                        .slice(0, -1)
                        .map((via) => `via ${via}`)
                        .join(', ')}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <table className="table" data-testid="plan-accounts">
        <thead>
          <tr>
            <th>Account</th>
            <th>Target</th>
            <th className="num">Before</th>
            <th className="num">After</th>
          </tr>
        </thead>
        <tbody>
          {plan.accounts.map((a) => (
            <tr key={keyOf(a.account)}>
              <td>{accountName(a.account)}</td>
              <td className="small">{targetText(a.target)}</td>
              <td className="num">{a.before}</td>
              <td className="num">{a.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
