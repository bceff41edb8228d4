import type { GovernanceBody, GovernanceRecord } from '../journal/records.ts';
import type { OperatorKey } from '../operators/keys.ts';
import { activeAt, emptyState, GovernanceError, type GovernanceRules } from '../governance/state.ts';
import { applyGovernance } from '../governance/fold.ts';
import { NO_RECOVERY } from './verify.ts';

/**
 * The rows that found a team from a desk's own records: copied in order, with the times they were written,
 * the desk vouched for by its first operator, `key`, who must be in force at every record (a read checks
 * each row's desk against the operators of its moment, so a copy they could not vouch for would not verify).
 */
export function foundingRows(
  records: readonly GovernanceRecord[],
  key: OperatorKey,
  rules: GovernanceRules,
): { body: GovernanceBody; at: string }[] {
  const first = records[0];
  if (!first || first.type !== 'operator_created' || first.ref !== key.id)
    throw new GovernanceError(
      `a team is founded by the desk's first operator${first?.type === 'operator_created' ? `, ${first.name}` : ''}: their passphrase vouches for this desk.`,
    );
  const s = emptyState();
  const bodies: { body: GovernanceBody; at: string }[] = [];
  for (const r of records) {
    const { seq, at, prev: _prev, mac: _mac, ...body } = r;
    if (body.type === 'recovery') throw new GovernanceError(`record ${seq} is a recovery, and ${NO_RECOVERY}.`);
    if (seq > 1 && !activeAt(s.operators.get(key.id), Date.parse(at)))
      throw new GovernanceError(
        `${key.name} is not an operator in force at record ${seq}, so they cannot vouch for this desk's copy of it.`,
      );
    applyGovernance(s, body as GovernanceBody, Date.parse(at), rules);
    bodies.push({ body: body as GovernanceBody, at });
  }
  return bodies;
}
