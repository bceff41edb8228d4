import { useEffect, useState } from 'react';
import type { TeamConnectionTest, TeamStatus } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';

// Team mode (docs/team.md): the team store this desk shares its approvals through. A connection test says
// what is there; an empty store is founded with this desk's records (its first operator vouches in the
// confirmation window), a team's store is joined once the operator has compared its founding record with
// the founding desk's. The password is sent to the core and never shown back.

function said(r: TeamConnectionTest): string {
  if (!r.reached) return r.reason;
  if (!('founding' in r.team)) return `Reached PostgreSQL ${r.server}: the store is empty, a team can be founded in it.`;
  return `Reached PostgreSQL ${r.server}: a team with ${r.team.records} record${r.team.records === 1 ? '' : 's'}. Its founding record is ${r.team.founding}: compare it with the founding desk's before joining.`;
}

const DOMAIN = { vault: 'the stored profiles', sandbox: "the Sandbox's play money" } as const;
const HOW = {
  founded: 'founded here',
  joined: 'joined',
  audited: 'joined as an auditor: read only',
  started: 'given when the desk was started',
} as const;

function StatusLine({ status }: { status: TeamStatus }) {
  if (!status.domain) return <p className="small muted">Unlock the desk and choose a profile to see which approvals it keeps.</p>;
  const t = status.team;
  if (!t)
    return <p data-testid="team-status">The approvals of {DOMAIN[status.domain]} are kept in this desk's own journal: no team store.</p>;
  return (
    <div data-testid="team-status">
      <p>
        The approvals of {DOMAIN[status.domain]} are on the team store {t.host}/{t.database} ({HOW[t.how]}).
      </p>
      <p className="small">Pinned founding record: {t.founding ?? 'not read yet'}</p>
      <p className={t.state === 'online' ? 'small' : 'error-panel'} data-testid="team-state">
        {t.state === 'online' ? 'Online: read and verified now.' : t.reason}
      </p>
      {t.tampered && t.tampered.requests.length > 0 && (
        <p className="small" data-testid="team-tampered">
          Touched by row {t.tampered.seq}: {t.tampered.requests.map((r) => r.summary).join('; ')}.
        </p>
      )}
      {t.clock?.refusal && (
        <p className="error-panel" data-testid="team-clock">
          {t.clock.refusal}.
        </p>
      )}
      {t.leases && t.leases.length > 0 && <Leases leases={t.leases} />}
    </div>
  );
}

type Lease = NonNullable<NonNullable<TeamStatus['team']>['leases']>[number];

const LEASE_STATE = {
  open: 'open',
  expired: 'expired: another desk may take it over',
  finished: 'finished: settled, sent no more',
} as const;

/** The active profile's send leases (docs/team.md §Send leases): open, expired or finished, and taken over by whom. */
function Leases({ leases }: { leases: Lease[] }) {
  return (
    <div data-testid="team-leases">
      <p className="small">Send leases:</p>
      <ul className="small">
        {leases.map((l) => (
          <li key={l.ref}>
            {l.ref}: {LEASE_STATE[l.state]}, {l.taken_over > 0 ? `taken over by ${l.owner}` : `held by ${l.owner}`}
            {l.mine ? ' (this desk)' : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function TeamSection() {
  const status = useDeskQuery('teamStatus', {});
  const test = useDeskMutation('teamTest');
  const found = useDeskMutation('teamFound');
  const join = useDeskMutation('teamJoin');
  const leave = useDeskMutation('teamLeave');
  const [leaving, setLeaving] = useState(false);
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [compared, setCompared] = useState(false);
  const conn = { url: url.trim(), ...(password ? { password } : {}) };
  // What the test found holds for the URL and password it was made with only.
  const edited = () => {
    test.reset();
    found.reset();
    join.reset();
    setCompared(false);
  };
  const tested = test.data?.reached ? test.data.team : null;
  const inTeam = Boolean(status.data?.team);
  const resetLeave = leave.reset;
  // A leave asked for is over once the desk is out of the team: a team joined later can be left again.
  useEffect(() => {
    if (!inTeam) {
      resetLeave();
      setLeaving(false);
    }
  }, [inTeam, resetLeave]);
  const waiting = found.data ?? (join.data && 'ticket' in join.data ? join.data : null);
  return (
    <div className="card" data-testid="team">
      <h2>Team store</h2>
      <p className="small muted">
        A PostgreSQL database several desks share their approvals through. On another machine its URL needs sslmode=verify-full (or
        require).
      </p>
      {status.data && <StatusLine status={status.data} />}
      {status.data?.team && status.data.team.how !== 'started' && !leave.data && (
        <div className="row">
          {!leaving ? (
            <button type="button" onClick={() => setLeaving(true)}>
              Leave the team…
            </button>
          ) : (
            <>
              <p role="alert" data-testid="team-leave">
                The team's queue will no longer be seen here: this desk's approvals go back to its own journal, as they were before it
                joined.{status.data.team.how === 'audited' ? '' : ' An operator of the team confirms in the confirmation window.'}
              </p>
              <button type="button" disabled={leave.isPending} onClick={() => leave.mutate({})}>
                Leave
              </button>
              <button type="button" onClick={() => setLeaving(false)}>
                Stay in the team
              </button>
            </>
          )}
        </div>
      )}
      {inTeam && leave.data && 'ticket' in leave.data && (
        <p role="status" data-testid="team-waiting">
          Waiting in the confirmation window: {leave.data.title}.
        </p>
      )}
      {leave.isError && <ErrorPanel error={leave.error} />}
      {!inTeam && (
        <form
          className="row"
          aria-label="Team store"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            edited();
            test.mutate(conn);
          }}
        >
          <Field label="URL" hint="postgresql://user@host/database?sslmode=verify-full">
            <input
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                edited();
              }}
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
          <Field label="Password">
            <input
              type="password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                edited();
              }}
              autoComplete="off"
            />
          </Field>
          <button type="submit" disabled={!url.trim() || test.isPending}>
            Test connection
          </button>
        </form>
      )}
      {!inTeam && test.data && (
        <p role="status" data-testid="team-test" className={test.data.reached ? '' : 'error-panel'}>
          {said(test.data)}
        </p>
      )}
      {test.isError && <ErrorPanel error={test.error} />}
      {!inTeam && tested && !('founding' in tested) && !waiting && (
        <div className="row">
          <p className="small">
            Founding copies this desk's operators, policy and requests into the store once; its first operator signs in the confirmation
            window.
          </p>
          <button type="button" disabled={found.isPending} onClick={() => found.mutate(conn)}>
            Found the team here
          </button>
        </div>
      )}
      {!inTeam && tested && 'founding' in tested && !waiting && (
        <div className="row">
          <label>
            <input type="checkbox" checked={compared} onChange={(e) => setCompared(e.target.checked)} /> The founding record above is the
            one the founding desk shows
          </label>
          <button type="button" disabled={!compared || join.isPending} onClick={() => join.mutate({ ...conn, founding: tested.founding })}>
            Join this team
          </button>
        </div>
      )}
      {!inTeam && waiting && (
        <p role="status" data-testid="team-waiting">
          Waiting in the confirmation window: {waiting.title}.
        </p>
      )}
      {found.isError && <ErrorPanel error={found.error} />}
      {join.isError && <ErrorPanel error={join.error} />}
    </div>
  );
}
