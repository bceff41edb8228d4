import { useState } from 'react';
import type { TeamVerifyAnswer } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { LongValue } from '../../components/LongValue.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';

/** What Verify of the team's records found: every row from the pinned founding record, or the first refused. */
export function TeamVerifyPanel({ answer }: { answer: TeamVerifyAnswer }) {
  if (!answer.team)
    return (
      <p className="muted" data-testid="team-verify-result">
        This profile&apos;s approvals are kept on this desk, not on a team store: Verify above checks them.
      </p>
    );
  const { verified, rows, refused } = answer;
  return (
    <div className={refused ? 'error-panel' : 'notice'} data-testid="team-verify-result">
      <strong>
        {refused
          ? `The team's records do not verify: record ${refused.seq} is refused.`
          : `Every team record verifies: ${verified} of ${rows}.`}
      </strong>
      <ul>
        <li>
          Rows verified: {verified} of {rows} (chain links, desk signatures and certificates, operator signatures and quorums).
        </li>
        {refused && (
          <li data-testid="team-refused">
            Refused: <strong>record {refused.seq}</strong>, {refused.reason}. Nothing it would authorise is sent.
          </li>
        )}
        <li>Last verified link: {answer.last_link ? <LongValue text={answer.last_link} /> : 'none'}</li>
        <li>
          Founding record this desk pinned: {answer.founding ? <LongValue text={answer.founding} /> : 'none yet (pinned at the first read)'}
        </li>
      </ul>
    </div>
  );
}

/**
 * The button and its answer: the team store read again and every row verified afresh, when the operator asks.
 * Shown only to a desk in a team: a single desk's Verify above already checks all its approvals.
 */
export function TeamVerify() {
  const status = useDeskQuery('teamStatus', {});
  if (!status.data?.team) return null;
  return <TeamVerifyCard />;
}

function TeamVerifyCard() {
  const [asked, setAsked] = useState(false);
  const verify = useDeskQuery('teamVerify', {}, { enabled: asked });
  return (
    <section className="card">
      <div className="row">
        <h2>Team records</h2>
        <button type="button" onClick={() => (asked ? void verify.refetch() : setAsked(true))} disabled={verify.isFetching}>
          {verify.isFetching ? 'Verifying the team records…' : 'Verify team records'}
        </button>
      </div>
      {verify.data && !verify.isFetching && <TeamVerifyPanel answer={verify.data} />}
      {verify.isError && <ErrorPanel error={verify.error} />}
    </section>
  );
}
