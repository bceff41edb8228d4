import { useState } from 'react';
import { ROLE_WORDS, ROLES, type Role } from '../../../../shared/api/roles.ts';
import type { ApprovalsState } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';

type Operator = ApprovalsState['operators'][number];

/** One operator: state, role (and the role an approved change gives them later), and the changes an admin may propose. */
function OperatorRow({ o, onAsk, readOnly }: { o: Operator; onAsk: (title: string) => void; readOnly: boolean }) {
  const remove = useDeskMutation('approvalsRemoveOperator');
  const setRole = useDeskMutation('approvalsSetRole');
  const [role, setChosen] = useState<Role>(o.role_ahead);
  return (
    <li data-testid="operator" data-role={o.role}>
      {o.name} <span className="small muted">{o.state.replace('_', ' ')}</span>{' '}
      <span className="small" title={ROLE_WORDS[o.role]}>
        {o.role}
        {o.role_ahead !== o.role && ` (becomes ${o.role_ahead} after the cooling-off)`}
      </span>
      {o.state === 'in_force' && !readOnly && (
        <span className="operator-actions">
          <select aria-label={`New role for ${o.name}`} value={role} onChange={(e) => setChosen(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="small"
            disabled={role === o.role_ahead || setRole.isPending}
            onClick={() => setRole.mutate({ id: o.id, role }, { onSuccess: (t) => onAsk(t.title) })}
          >
            Propose role change
          </button>
          <button type="button" className="small" onClick={() => remove.mutate({ id: o.id }, { onSuccess: (t) => onAsk(t.title) })}>
            Propose removal
          </button>
        </span>
      )}
      {setRole.isError && <ErrorPanel error={setRole.error} />}
      {remove.isError && <ErrorPanel error={remove.error} />}
    </li>
  );
}

/** The operators, each with their role; role changes and removals are proposals the change quorum approves. */
export function OperatorList({
  operators,
  onAsk,
  readOnly = false,
}: {
  operators: ApprovalsState['operators'];
  onAsk: (title: string) => void;
  /** An auditor desk: no proposals offered. */
  readOnly?: boolean;
}) {
  return (
    <>
      <ul className="operators">
        {operators.map((o) => (
          <OperatorRow key={o.id} o={o} onAsk={onAsk} readOnly={readOnly} />
        ))}
      </ul>
      <details className="small">
        <summary>What each role may sign</summary>
        <ul>
          {ROLES.map((r) => (
            <li key={r}>
              <strong>{r}</strong>: {ROLE_WORDS[r]}.
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}
