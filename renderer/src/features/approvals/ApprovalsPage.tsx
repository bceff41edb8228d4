import { useId, useState } from 'react';
import { Link } from 'react-router';
import { pagePath } from '../../app/paths.ts';
import { channels, type ApprovalItem, type ApprovalsState } from '../../../../shared/ipc.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { useDeskQuery } from '../../desk/hooks.ts';
import { DeskError } from '../../desk/desk.ts';
import { OperatorList } from './OperatorList.tsx';
import { AddressBookPanel } from './AddressBookPanel.tsx';
import { PolicyEditor } from './PolicyEditor.tsx';
import { ruleSentence } from './ruleSentence.ts';
import { PolicyPreview } from './PolicyPreview.tsx';
import { VerdictTable } from './Verdict.tsx';
import { DecidedBy } from './DecidedBy.tsx';
import { TamperedRows } from './TamperedRows.tsx';
import { LongValue } from '../../components/LongValue.tsx';
import { CANCEL_NEEDS_NO_SIGNATURE } from '../../components/cancelWords.ts';
import { dateTime } from '../../components/localTime.ts';

// The queue of requests and changes, who drafted, who approved and who is still needed, and the
// buttons that ask the confirmation window for a signature. Nothing here signs.

function age(ms: number): string {
  const m = Math.max(0, Math.round((Date.now() - ms) / 60_000));
  return m < 60 ? `${m} min` : m < 2880 ? `${Math.round(m / 60)} h` : `${Math.round(m / 1440)} d`;
}

/** A rejection's reason, under the contract's own rule for it (required here: only a rejection has one). */
const ReasonSchema = channels.approvalsDecide.request.pick({ reason: true }).required();

function Item({ it, onAsk, readOnly }: { it: ApprovalItem; onAsk: (title: string) => void; readOnly: boolean }) {
  const decide = useDeskMutation('approvalsDecide');
  const {
    register,
    handleSubmit,
    watch,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm(ReasonSchema, { defaultValues: { reason: '' } });
  const reasonId = useId();
  const reasonProblem = fieldMessage(errors.reason);
  const reject = handleSubmit((v) =>
    decide.mutate({ ref: it.ref, action: 'reject', reason: v.reason }, { onSuccess: (t) => onAsk(t.title), onError: putOnField }),
  );
  const open = it.state === 'waiting' && !readOnly;
  const still = Math.max(0, it.needed - it.approved_by.length);
  return (
    <tr data-testid="approval-item">
      <td>
        {it.what === 'request' ? it.kind?.replace(/_/g, ' ') : it.what === 'batch' ? `${it.kind ?? ''} batch` : it.what.replace(/_/g, ' ')}
        <div className="small muted">{age(it.drafted_at)} ago</div>
      </td>
      <td className="wrap">
        {it.what === 'batch' && it.kind === 'payouts' ? <Link to={pagePath('payouts', { batch: it.ref })}>{it.summary}</Link> : it.summary}
      </td>
      <td>
        {it.decided !== undefined ? (
          <DecidedBy decided={it.decided} />
        ) : it.verdict ? (
          <details>
            <summary>{it.verdict.rule ?? '(none)'}</summary>
            <VerdictTable verdict={it.verdict} />
          </details>
        ) : (
          <span className="small muted">quorum {it.needed}</span>
        )}
      </td>
      <td>
        <div>
          Drafted by {it.drafted_by}
          {it.desks && ` at ${deskLabel(it.desks.drafted, it.desks.here)}`}
        </div>
        <div className="small">{it.approved_by.length ? `Approved by ${it.approved_by.join(', ')}` : 'No approval yet'}</div>
        {it.desks && (
          <div className="small muted" data-testid="signed-at">
            Signed {it.desks.signed.map((x) => `by ${x.name} at ${deskLabel(x.desk, it.desks!.here)}`).join('; ')}
          </div>
        )}
        {open && <div className="small">{still} more needed</div>}
      </td>
      <td data-testid="item-state">
        {it.state.replace('_', ' ')}
        {it.state === 'cooling_off' && it.effective_at && <span className="small muted"> until {dateTime(it.effective_at)}</span>}
        {it.state === 'waiting' && it.expires_at && <span className="small muted"> (expires {dateTime(it.expires_at)})</span>}
        {it.state === 'expired' && it.expires_at && (
          <span className="small"> {dateTime(it.expires_at)}, unapproved: never sent. Draft it again if it is still wanted.</span>
        )}
        {it.rejected && (
          <span className="small">
            {' '}
            by {it.rejected.by}: {it.rejected.reason}
          </span>
        )}
      </td>
      <td className="decision">
        {open && (
          <>
            <button
              type="button"
              className="primary"
              onClick={() => decide.mutate({ ref: it.ref, action: 'approve' }, { onSuccess: (t) => onAsk(t.title) })}
            >
              Approve
            </button>
            <form className="inline" noValidate aria-label={`Reject ${it.ref}`} onSubmit={(e) => void reject(e)}>
              <input
                aria-label="Reason"
                placeholder="reason"
                size={10}
                {...register('reason')}
                aria-invalid={reasonProblem ? true : undefined}
                aria-describedby={reasonProblem ? reasonId : undefined}
              />
              <button type="submit" disabled={!watch('reason').trim()}>
                Reject
              </button>
              {reasonProblem && (
                <span id={reasonId} className="field-error">
                  {reasonProblem}
                </span>
              )}
            </form>
          </>
        )}
        {decide.isError && !onField(decide.error) && <ErrorPanel error={decide.error} />}
      </td>
    </tr>
  );
}

function Cancellable() {
  const list = useDeskQuery('withdrawalsCancellable', {});
  const cancel = useDeskMutation('withdrawalsCancel');
  if (!list.data?.length) return null;
  return (
    <section className="card" aria-label="Cancellable withdrawals">
      <h2>Withdrawals still cancellable at the exchange</h2>
      <ul>
        {list.data.map((w) => (
          <li key={w.exchange_id} className="small">
            {w.amount} {w.currency} to <LongValue text={w.address} copy="address" /> ({w.status})
          </li>
        ))}
      </ul>
      <button type="button" className="danger" onClick={() => cancel.mutate({ exchange_ids: list.data.map((w) => w.exchange_id) })}>
        Cancel all {list.data.length}
      </button>
      <p className="small muted" data-testid="cancel-unsigned">
        {CANCEL_NEEDS_NO_SIGNATURE}
      </p>
      {cancel.data && (
        <ul>
          {cancel.data.map((r) => (
            <li key={r.exchange_id} className="small">
              {r.exchange_id}: {r.ok ? 'cancellation asked' : r.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function ApprovalsPage() {
  const state = useDeskQuery('approvalsState', {});
  const unfreeze = useDeskMutation('approvalsUnfreeze');
  const [asked, setAsked] = useState<string | null>(null);
  if (state.isError)
    return (
      <>
        <ErrorPanel error={state.error} />
        {state.error instanceof DeskError && state.error.body.label === 'TEAM_STORE_TAMPERED' && <TamperedRows />}
      </>
    );
  if (!state.data) return null;
  const s = state.data;
  // An auditor desk reads and verifies the team's queue and records: it offers nothing to sign or send.
  const ro = s.read_only !== undefined;
  return (
    <>
      <div className="page-header">
        <h1>Approvals</h1>
      </div>
      {ro && (
        <p className="card" data-testid="read-only">
          {s.read_only!.charAt(0).toUpperCase() + s.read_only!.slice(1)}.
        </p>
      )}
      {asked && (
        <p role="status" data-testid="asked">
          Sign in the confirmation window: “{asked}”.
        </p>
      )}
      {s.frozen && (
        <div className="card">
          <p>
            The desk is frozen. Unfreezing needs {s.change_quorum} operator{s.change_quorum > 1 ? 's' : ''}.
          </p>
          {!ro && (
            <button type="button" onClick={() => unfreeze.mutate({}, { onSuccess: (t) => setAsked(t.title) })}>
              Propose to unfreeze
            </button>
          )}
        </div>
      )}
      {!ro && <Cancellable />}
      <section className="card">
        <h2>Queue</h2>
        {s.items.length === 0 ? (
          <p className="muted">Nothing waits for approval.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>What</th>
                <th>Amount and destination</th>
                <th>Rule</th>
                <th>Signatures</th>
                <th>State</th>
                <th>
                  <span className="sr-only">Decision</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {s.items.map((it) => (
                <Item key={it.ref} it={it} onAsk={setAsked} readOnly={ro} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card">
        <h2>Operators</h2>
        {s.needs_first_operator ? (
          <p>No operator yet: create the first in the confirmation window.</p>
        ) : (
          <OperatorList operators={s.operators} onAsk={setAsked} readOnly={ro} />
        )}
        <p className="small muted" data-testid="change-quorum-now">
          Operator and policy changes need {s.change_quorum} approval{s.change_quorum > 1 ? 's' : ''} and take effect{' '}
          {s.cooling_off_hours > 0 ? `${s.cooling_off_hours} h later` : 'at once'}.
        </p>
        {!s.needs_first_operator && <Resilience r={s.resilience} />}
        {s.cooling_off_variable && (
          <p className="small muted" data-testid="cooling-off-variable">
            This is the Sandbox profile's play-money wait (none unless TREASURY_DESK_COOLING_OFF_HOURS sets one); every other profile waits
            24 h. A change keeps the wait it was proposed with.
          </p>
        )}
      </section>
      <section className="card">
        <h2>Policy in force</h2>
        {s.policy.refused && (
          <p className="error-panel" role="alert">
            {s.policy.refused}
          </p>
        )}
        <ol>
          {s.policy.rules.map((r, i) => (
            <li key={r.id}>
              <span className="mono">{r.id}</span>: {ruleSentence(r, { first: i === 0 })}
            </li>
          ))}
        </ol>
        <p className="small muted">{s.policy.ref ? `Approved change ${s.policy.ref}.` : 'The default policy (no change approved yet).'}</p>
        {!ro && (
          <PolicyEditor
            current={{
              rules: s.policy.rules,
              ...(s.policy.request_expiry_hours !== undefined ? { request_expiry_hours: s.policy.request_expiry_hours } : {}),
            }}
            onAsk={setAsked}
            preview={(policy) => <PolicyPreview policy={policy} />}
            changeQuorumNow={s.change_quorum}
          />
        )}
      </section>
      {!ro && <AddressBookPanel onAsk={setAsked} />}
    </>
  );
}

/**
 * How many operators the desk could lose before the policy in force wedges it: any margin + 1 of the
 * operators able to meet its strictest requirement is the smallest set whose loss leaves it without signers.
 */
function Resilience({ r }: { r: ApprovalsState['resilience'] }) {
  const lose = r.margin + 1;
  return (
    <p className="small" data-testid="resilience">
      The strictest requirement, {r.strictest}, needs {r.needs} distinct operator{r.needs === 1 ? '' : 's'}; {r.signers} can meet it (
      {r.able.join(', ')}).{' '}
      {lose >= r.signers
        ? 'Only losing all of them would wedge the desk.'
        : `Losing any ${lose === 1 ? 'one' : lose} of them would wedge it: nothing it governs could be sent and no change could repair it.`}
    </p>
  );
}

/** A team desk as the page names it: its fingerprint, and "this desk" for the one the page runs on. */
function deskLabel(desk: string, here: string | null): string {
  return desk === here ? `${desk} (this desk)` : desk;
}
