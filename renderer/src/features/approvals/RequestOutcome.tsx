import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { INTENT_STATUS_KIND, statusEntry } from '../../../../shared/api/statusWords.ts';
import type { IntentView, RequestStatus } from '../../../../shared/ipc.ts';
import { pagePath } from '../../app/paths.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { outcomeWords } from '../activity/index.ts';
import { dateTime, timeOfDay } from '../../components/localTime.ts';
import { useNow } from '../../components/useNow.ts';
import { doubtWords } from '../../../../shared/doubtWords.ts';
import { DecidedBy } from './DecidedBy.tsx';

type Step = 'signed' | 'approved' | 'sent' | 'answered' | 'final';
const STEPS: { step: Step; name: string }[] = [
  { step: 'signed', name: 'Signed' },
  { step: 'approved', name: 'Approved' },
  { step: 'sent', name: 'Sent' },
  { step: 'answered', name: 'Answered by the exchange' },
  { step: 'final', name: 'Final status' },
];

type Tone = 'moving' | 'ok' | 'bad';
interface Outcome {
  /** The last step reached. */
  reached: Step | null;
  tone: Tone;
  words: string;
  /** Nothing more will happen to it. */
  ended: boolean;
}

function intentOutcome(i: IntentView, now: number): Outcome {
  const status = i.status ? statusEntry(INTENT_STATUS_KIND[i.kind], i.status) : null;
  const atExchange = [i.exchange_id ? `exchange id ${i.exchange_id}` : '', status ? `${i.status}: ${status.words}` : '']
    .filter(Boolean)
    .join('; ');
  // The exchange's label in words (the label itself is Activity's, under Details), else the desk's reason.
  const reason = outcomeWords(i).words;
  switch (i.state) {
    case 'pending_approval':
    case 'approved':
      return { reached: 'approved', tone: 'moving', words: 'Approved: queued to send at the exchange’s pace.', ended: false };
    case 'in_flight':
      return { reached: 'sent', tone: 'moving', words: 'Sent: waiting for the exchange’s answer.', ended: false };
    case 'unconfirmed':
      return {
        reached: 'sent',
        tone: 'moving',
        words: doubtWords(i.doubt_until, now, timeOfDay),
        ended: false,
      };
    case 'accepted':
      return {
        reached: 'answered',
        tone: 'moving',
        words: `Accepted by the exchange (${atExchange}). Waiting for its final status.`,
        ended: false,
      };
    case 'done': {
      // An order's write is done once the book holds it; its fills are the order lists' to show.
      const done = i.kind === 'spot_order' ? 'Placed at the exchange' : 'Done';
      return {
        reached: 'final',
        tone: status?.tone === 'bad' ? 'bad' : 'ok',
        words: `${done} (${atExchange || 'the exchange accepted it'}).`,
        ended: true,
      };
    }
    case 'refused':
      return { reached: 'final', tone: 'bad', words: `Refused by the exchange: nothing moved. ${reason}`.trim(), ended: true };
    case 'needs_attention':
      return { reached: 'sent', tone: 'bad', words: `Needs your attention in Activity. ${reason}`.trim(), ended: false };
    case 'settled':
      return { reached: 'final', tone: 'ok', words: `${reason}.`, ended: true };
    case 'cancelled':
      return { reached: 'final', tone: 'bad', words: `Cancelled before it was sent. ${reason}`.trim(), ended: true };
  }
}

function outcomeOf(s: RequestStatus, title: string, now: number): Outcome {
  const signed = s.approved_by.length ? ` (${s.approved_by.join(', ')})` : '';
  if (s.intent) return intentOutcome(s.intent, now);
  switch (s.state) {
    case 'to_sign':
      return {
        reached: null,
        tone: 'moving',
        words: `Waiting for a signature in the confirmation window: “${title}”. Nothing is sent until the policy’s approvals are signed there.`,
        ended: false,
      };
    case 'gone':
      return {
        reached: null,
        tone: 'bad',
        words:
          'This draft is no longer waiting in the confirmation window and was never signed (declined there, or the desk restarted). Nothing was sent.',
        ended: true,
      };
    case 'waiting':
      return {
        reached: 'signed',
        tone: 'moving',
        words: `Signed. Waiting for approvals: ${s.approved_by.length} of ${s.needed}${signed}. Other operators approve it on the Approvals page${s.expires_at ? ` before ${dateTime(s.expires_at)}, when it expires` : ''}.`,
        ended: false,
      };
    case 'expired':
      return {
        reached: 'signed',
        tone: 'bad',
        words: `Expired before its approvals were complete${signed}: it will never be sent. Draft it again if it is still wanted.`,
        ended: true,
      };
    case 'rejected':
      return {
        reached: 'signed',
        tone: 'bad',
        words: `Rejected by ${s.rejected?.by ?? 'an operator'}: ${s.rejected?.reason ?? ''}. Nothing was sent.`,
        ended: true,
      };
    case 'approved':
    case 'sent':
      return { reached: 'approved', tone: 'moving', words: `Approved${signed}: handing it to the exchange.`, ended: false };
  }
}

/** The request's record elsewhere: the withdrawal's timeline, else its row in Activity. */
function RecordLink({ intent }: { intent: IntentView }) {
  if (intent.kind === 'withdrawal' && intent.exchange_id && intent.client_id)
    return <Link to={pagePath('withdrawals', { search: intent.client_id })}>Its record: fee, txid and timeline</Link>;
  return <Link to={pagePath('activity', { intent: intent.id })}>Its record in Activity</Link>;
}

/**
 * A request drafted from this page, followed here to its end: the drafter's signature, the approvals,
 * the send, the exchange's answer and its final status, in words, with a link to its record. Every step is
 * announced by the core (`approvals` and `intent` events), so the page never polls.
 */
export function RequestOutcome({ requestRef, title, onAgain }: { requestRef: string; title: string; onAgain?: () => void }) {
  const q = useDeskQuery('requestStatus', { ref: requestRef });
  // The time left of a write in doubt counts down (docs/failure-modes.md §In doubt).
  const now = useNow(1000);
  // It takes the place of the button that sent the request for signing: focus comes here, not to the page body.
  const box = useRef<HTMLDivElement>(null);
  const shown = !!q.data;
  useEffect(() => {
    if (shown && (document.activeElement === null || document.activeElement === document.body)) box.current?.focus();
  }, [shown]);
  if (q.isError) return <ErrorPanel error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <p className="muted">Reading where the request stands…</p>;
  const o = outcomeOf(q.data, title, now);
  const reachedAt = o.reached ? STEPS.findIndex((s) => s.step === o.reached) : -1;
  return (
    <div
      ref={box}
      tabIndex={-1}
      className="request-outcome"
      data-testid="request-outcome"
      data-state={q.data.intent?.state ?? q.data.state}
      data-ended={o.ended}
    >
      <ol className="steps" aria-label="Progress">
        {STEPS.map((s, i) => (
          <li key={s.step} className={i <= reachedAt ? 'step-done' : 'step-todo'} aria-current={i === reachedAt ? 'step' : undefined}>
            {s.name}
          </li>
        ))}
      </ol>
      <p role="status" className={`outcome outcome-${o.tone}`} data-testid="awaiting-signature">
        {o.words}
      </p>
      {q.data.decided !== undefined && (
        <p className="small muted">
          Decided by <DecidedBy decided={q.data.decided} />
        </p>
      )}
      {q.data.intent && <RecordLink intent={q.data.intent} />}
      {o.ended && onAgain && (
        <div className="actions">
          <button type="button" onClick={onAgain}>
            Start another
          </button>
        </div>
      )}
    </div>
  );
}
