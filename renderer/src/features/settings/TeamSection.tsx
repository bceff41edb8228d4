import { useState } from 'react';
import type { TeamConnectionTest } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';

// Team mode (issue 27): the team store this desk would share its approvals through, and a connection
// test that says what is there. The password is sent to the core for the test and never shown back.

function said(r: TeamConnectionTest): string {
  if (!r.reached) return r.reason;
  if (!('founding' in r.team)) return `Reached PostgreSQL ${r.server}: the store is empty, a team can be founded in it.`;
  return `Reached PostgreSQL ${r.server}: a team with ${r.team.records} record${r.team.records === 1 ? '' : 's'}. Its founding record is ${r.team.founding}: compare it with the founding desk's before joining.`;
}

export function TeamSection() {
  const test = useDeskMutation('teamTest');
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  return (
    <div className="card" data-testid="team">
      <h2>Team store</h2>
      <p className="small muted">
        A PostgreSQL database several desks share their approvals through. On another machine its URL needs sslmode=verify-full (or
        require).
      </p>
      <form
        className="row"
        aria-label="Team store"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          test.mutate({ url: url.trim(), ...(password ? { password } : {}) });
        }}
      >
        <Field label="URL" hint="postgresql://user@host/database?sslmode=verify-full">
          <input value={url} onChange={(e) => setUrl(e.target.value)} autoComplete="off" spellCheck={false} />
        </Field>
        <Field label="Password">
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="off" />
        </Field>
        <button type="submit" disabled={!url.trim() || test.isPending}>
          Test connection
        </button>
      </form>
      {test.data && (
        <p role="status" data-testid="team-test" className={test.data.reached ? '' : 'error-panel'}>
          {said(test.data)}
        </p>
      )}
      {test.isError && <ErrorPanel error={test.error} />}
    </div>
  );
}
