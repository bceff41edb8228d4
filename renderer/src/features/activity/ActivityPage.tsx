import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { INTENT_STATUS_KIND, statusEntry } from '../../../../shared/api/statusWords.ts';
import type { IntentView } from '../../../../shared/ipc.ts';
import { pagePath } from '../../app/paths.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { DeskError } from '../../desk/desk.ts';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { InDoubt } from '../../components/InDoubt.tsx';
import { KIND_NAMES, outcomeWords, STATE_NAMES, summary, TROUBLE_STATES } from './intentText.ts';
import { RawDetails } from '../../components/RawDetails.tsx';
import { JournalNotice } from './JournalNotice.tsx';
import { SettleDialog } from './SettleDialog.tsx';
import { LongValue } from '../../components/LongValue.tsx';
import { dateTime } from '../../components/localTime.ts';

/** The journal notice says this one, with the way forward. */
function isJournalDamaged(e: Error): boolean {
  return e instanceof DeskError && e.body.label === 'JOURNAL_DAMAGED';
}

/** A detail the exchange gave, labelled; the journal keeps the id and status, the body what the operator asked. */
function Detail({ name, value }: { name: string; value: string | number | boolean | undefined }) {
  if (value === undefined || value === '') return null;
  return (
    <div>
      <span className="muted">{name}:</span> <LongValue text={String(value)} />
    </div>
  );
}

/** The exchange's status, read from the table of the write's kind: a transfer's SUCCESS is not a withdrawal's. */
function ExchangeStatus({ intent, status }: { intent: IntentView; status: string }) {
  const e = statusEntry(INTENT_STATUS_KIND[intent.kind], status);
  return (
    <div title={e.words} data-testid="exchange-status" data-tone={e.tone}>
      <span className="muted">Status:</span> <span className={`status-badge status-${e.tone}`}>{status}</span> {e.words}
    </div>
  );
}

function IntentRow({ intent: i, onSettle, marked }: { intent: IntentView; onSettle: (i: IntentView) => void; marked: boolean }) {
  const approve = useDeskMutation('writeApprove');
  const cancel = useDeskMutation('writeCancel');
  const rowRef = useRef<HTMLTableRowElement>(null);
  // Arrived by a page's link to this write's record: show it, and put focus on it for a screen reader.
  useEffect(() => {
    if (!marked) return;
    rowRef.current?.scrollIntoView({ block: 'center' });
    rowRef.current?.focus();
  }, [marked]);
  // The buttons go away as the state moves on: focus stays on the row, not the page body.
  const act = (run: () => void) => {
    rowRef.current?.focus();
    run();
  };
  const trouble = TROUBLE_STATES.has(i.state);
  return (
    <tr
      ref={rowRef}
      tabIndex={-1}
      data-intent={i.id}
      data-state={i.state}
      className={marked ? 'marked' : undefined}
      aria-current={marked ? 'true' : undefined}
      aria-label={`${KIND_NAMES[i.kind]} ${summary(i)}`}
    >
      <td className="small">{dateTime(i.created_at)}</td>
      <td>{KIND_NAMES[i.kind]}</td>
      <td className="small wrap">
        {summary(i)}
        <Detail name="Id" value={i.client_id ?? undefined} />
      </td>
      <td>
        {STATE_NAMES[i.state] ?? i.state}
        {i.attempts > 1 && <span className="muted small"> · {i.attempts} sends</span>}
        <InDoubt state={i.state} until={i.doubt_until} />
        {(i.label || i.reason) && (
          <div className={`small ${trouble ? 'field-error' : 'muted'}`} data-testid="intent-outcome">
            {outcomeWords(i).words}
            <RawDetails lines={outcomeWords(i).raw} />
          </div>
        )}
        {approve.isError && <ErrorPanel error={approve.error} />}
        {cancel.isError && <ErrorPanel error={cancel.error} />}
      </td>
      <td className="small wrap">
        <Detail name="Exchange id" value={i.exchange_id} />
        {i.duplicates?.map((d) => (
          <div key={d.exchange_id} className="field-error" data-testid="duplicate">
            Copy {d.exchange_id} under the same id:{' '}
            {d.action === 'cancel_asked'
              ? `the desk asked to cancel it (${d.status ?? 'no status'})`
              : `left for you (${d.status ?? 'no status'})`}
          </div>
        ))}
        {i.status && <ExchangeStatus intent={i} status={i.status} />}
        {/* Fee, txid and every status seen live with the exchange's record, in the history cache. */}
        {i.kind === 'withdrawal' && i.exchange_id && i.client_id && (
          <Link to={pagePath('withdrawals', { search: i.client_id })}>Fee, txid and timeline</Link>
        )}
      </td>
      <td className="row-actions">
        {i.state === 'pending_approval' && (
          <button type="button" className="primary" onClick={() => act(() => approve.mutate({ id: i.id }))}>
            Approve and send
          </button>
        )}
        {i.state === 'pending_approval' && (
          <button type="button" onClick={() => act(() => cancel.mutate({ id: i.id, reason: 'cancelled by the operator' }))}>
            Cancel
          </button>
        )}
        {i.state === 'needs_attention' && (
          <button type="button" onClick={() => onSettle(i)}>
            Settle…
          </button>
        )}
      </td>
    </tr>
  );
}

/** Every write the desk journaled, live: what it was, where it stands, and what the operator may do. */
export default function ActivityPage() {
  const [search] = useSearchParams();
  const unfinishedOnly = search.get('show') === 'unfinished';
  const marked = search.get('intent');
  // The newest 200 writes, one page of the journal (keyset paging in the core); older ones stay in the journal.
  const list = useDeskQuery('intentsList', { unfinished_only: unfinishedOnly, limit: 200 });
  const items = list.data?.items;
  const [settling, setSettling] = useState<IntentView | null>(null);

  return (
    <section className="page">
      <header className="page-header">
        <h1 tabIndex={-1}>Activity</h1>
        <nav className="segmented" aria-label="Which writes">
          <Link to={pagePath('activity')} aria-current={!unfinishedOnly ? 'true' : undefined}>
            All
          </Link>
          <Link to={pagePath('activity', { show: 'unfinished' })} aria-current={unfinishedOnly ? 'true' : undefined}>
            Unfinished
          </Link>
        </nav>
      </header>
      <JournalNotice />
      {list.isError && !isJournalDamaged(list.error) && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
      {items && items.length === 0 && (
        <p className="muted">{unfinishedOnly ? 'No unfinished writes.' : 'No withdrawals or transfers yet.'}</p>
      )}
      {items && items.length > 0 && (
        <table className="table intents" data-testid="intents">
          <thead>
            <tr>
              <th>When</th>
              <th>What</th>
              <th>Details</th>
              <th>State</th>
              <th>At the exchange</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <IntentRow key={i.id} intent={i} onSettle={setSettling} marked={i.id === marked} />
            ))}
          </tbody>
        </table>
      )}
      {settling && <SettleDialog intent={settling} onDone={() => setSettling(null)} />}
    </section>
  );
}
