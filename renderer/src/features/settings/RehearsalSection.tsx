import { useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';

// Rehearsing a team across two desks (docs/team.md §Rehearsing a team). At the first desk, "Invite a desk"
// has its Sandbox make a key for a second desk and shows one code to copy (the Sandbox's address, that key,
// the team store's URL without its password). At the second desk, "Join a rehearsal" takes that code and
// the team store's password: its Sandbox profile then trades on the first desk's Sandbox, in its team.
// Play money only: the core refuses an invitation from any profile but the built-in Sandbox one.

function Invite() {
  const invite = useDeskMutation('teamInvite');
  const [copied, setCopied] = useState(false);
  const made = invite.data;
  return (
    <div data-testid="rehearsal-invite">
      <div className="row">
        <button
          type="button"
          disabled={invite.isPending}
          onClick={() => {
            setCopied(false);
            invite.mutate({});
          }}
        >
          Invite a desk
        </button>
        <span className="small muted">A new key of this Sandbox's main account for the second desk, and where the team store is.</span>
      </div>
      {made && (
        <div role="status">
          <p className="small">
            For the second desk: this Sandbox ({made.sandbox})
            {made.team
              ? `, and the team store ${made.team.host}/${made.team.database} (they type its password)`
              : ' (this desk is in no team yet)'}
            .
          </p>
          <textarea
            readOnly
            rows={3}
            value={made.invitation}
            aria-label="Invitation"
            data-testid="rehearsal-invitation"
            spellCheck={false}
          />
          <button
            type="button"
            onClick={() => {
              void navigator.clipboard?.writeText(made.invitation).then(() => setCopied(true));
            }}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      {invite.isError && <ErrorPanel error={invite.error} />}
    </div>
  );
}

function Join() {
  const join = useDeskMutation('teamJoinRehearsal');
  const [invitation, setInvitation] = useState('');
  const [password, setPassword] = useState('');
  const done = join.data;
  return (
    <form
      aria-label="Join a rehearsal"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        join.mutate({ invitation: invitation.trim(), ...(password ? { password } : {}) });
      }}
    >
      <Field label="Invitation" hint="The code the first desk's “Invite a desk” showed (tdrh1.…)">
        <textarea
          rows={3}
          value={invitation}
          onChange={(e) => {
            setInvitation(e.target.value);
            join.reset();
          }}
          spellCheck={false}
        />
      </Field>
      <Field label="Team store password">
        <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="off" />
      </Field>
      <button type="submit" disabled={!invitation.trim() || join.isPending}>
        Join a rehearsal
      </button>
      {done && (
        <p role="status" data-testid="rehearsal-joined">
          The Sandbox profile now trades on {done.sandbox}.{' '}
          {done.team === 'joined'
            ? 'Joined its team.'
            : done.team === 'already'
              ? 'Already in its team.'
              : done.team === null
                ? 'The invitation names no team store.'
                : `Waiting in the confirmation window: ${done.team.title}.`}
        </p>
      )}
      {join.isError && <ErrorPanel error={join.error} />}
    </form>
  );
}

export function RehearsalSection() {
  const current = useDeskQuery('profileCurrent', {});
  const onSandbox = current.data?.built_in === true && current.data.environment === 'sandbox';
  return (
    <div className="card" data-testid="rehearsal">
      <h2>Rehearse a team</h2>
      <p className="small muted">
        Two desks on one machine, one Sandbox, play money: invite the second desk from the first, then join with the code there.
      </p>
      {onSandbox ? (
        <>
          <Invite />
          <Join />
        </>
      ) : (
        <p className="small muted">
          Choose the Sandbox profile to invite a desk or join a rehearsal: a rehearsal moves only the Sandbox profile, and a live key never
          goes into an invitation.
        </p>
      )}
    </div>
  );
}
