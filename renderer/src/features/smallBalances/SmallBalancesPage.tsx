import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { DustAccount, DustOverview, DustReview } from '../../../../shared/smallBalance.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { LowCapFlag, useLowCap } from '../../components/LowCap.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { VerdictTable } from '../approvals/index.ts';
import { accountName, DustProgressPanel } from './DustProgress.tsx';
import { DustHistory } from './DustHistory.tsx';
import './smallBalances.css';

const keyOf = (account: DustAccount, currency: string) => `${account} ${currency}`;

/**
 * Small balances of the main account and every sub-account whose key the profile holds: pick the ones to
 * convert, review them under the policy as one batch, sign it once in the confirmation window, and follow
 * each account's conversions; below, each account's conversion history.
 */
export default function SmallBalancesPage() {
  const [search, setSearch] = useSearchParams();
  const batch = search.get('batch');
  const list = useDeskQuery('dustList', {});
  const lowCap = useLowCap();
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const review = useDeskMutation('dustReview');
  const convert = useDeskMutation('dustConvert');

  const rows = (o: DustOverview) =>
    o.accounts.flatMap((a) =>
      a.items.filter((i) => picked.has(keyOf(a.account, i.currency))).map((i) => ({ account: a.account, currency: i.currency })),
    );
  // Only what is still listed: a balance converted or grown since it was ticked drops out of the selection.
  const selected = list.data ? rows(list.data) : [];
  const toggle = (k: string) => {
    review.reset();
    setPicked((s) => {
      const n = new Set(s);
      if (n.has(k)) n.delete(k);
      else n.add(k);
      return n;
    });
  };
  const pickAll = (o: DustOverview) => {
    review.reset();
    setPicked(new Set(o.accounts.flatMap((a) => a.items.map((i) => keyOf(a.account, i.currency)))));
  };

  return (
    <section className="page">
      <header className="page-header">
        <h1 tabIndex={-1}>Small balances</h1>
        {batch && (
          <button type="button" onClick={() => setSearch({})}>
            Back to the balances
          </button>
        )}
      </header>
      {batch ? (
        <DustProgressPanel batchRef={batch} />
      ) : (
        <>
          <p className="muted">
            Each account's spot balances too small to trade, as the exchange lists them for that account's own key, and what each would
            convert to in GT. Converting them is a write under the approval policy (valued in USDT): the selection is reviewed as one batch
            and signed once, then each account's conversions go out with its own key.
          </p>
          {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
          {!list.data && !list.isError && <p className="muted">Reading every account's small balances…</p>}
          {list.data && (
            <DustTables
              overview={list.data}
              lowCap={lowCap}
              picked={picked}
              toggle={toggle}
              pickAll={() => pickAll(list.data)}
              clear={() => setPicked(new Set())}
            />
          )}
          {selected.length > 0 && (
            <div className="actions">
              <button type="button" disabled={review.isPending} onClick={() => review.mutate({ rows: selected })}>
                Convert {selected.length} balance{selected.length === 1 ? '' : 's'} to GT…
              </button>
            </div>
          )}
          {review.isError && <ErrorPanel error={review.error} />}
          {review.data && (
            <DustReviewPanel
              review={review.data}
              lowCap={lowCap}
              sending={convert.isPending}
              error={convert.error}
              // Exactly the rows reviewed; the core reads their amounts again and refuses one no longer small.
              send={() =>
                convert.mutate(
                  { rows: review.data!.rows.map((r) => ({ account: r.account, currency: r.currency })) },
                  { onSuccess: (q) => setSearch({ batch: q.ref }) },
                )
              }
            />
          )}
          {list.data && <DustHistory accounts={list.data.accounts.map((a) => a.account)} lowCap={lowCap} />}
        </>
      )}
    </section>
  );
}

function DustTables({
  overview,
  lowCap,
  picked,
  toggle,
  pickAll,
  clear,
}: {
  overview: DustOverview;
  lowCap: ReadonlySet<string>;
  picked: ReadonlySet<string>;
  toggle: (k: string) => void;
  pickAll: () => void;
  clear: () => void;
}) {
  const any = overview.accounts.some((a) => a.items.length > 0);
  return (
    <>
      <p data-testid="dust-total">
        All accounts: <strong>{overview.total_btc} BTC</strong> estimated, convertible to <strong>{overview.total_gt} GT</strong>.
      </p>
      {any && (
        <div className="actions">
          <button type="button" onClick={pickAll}>
            Select every small balance
          </button>
          <button type="button" onClick={clear} disabled={picked.size === 0}>
            Clear the selection
          </button>
        </div>
      )}
      {overview.accounts.map((a) => (
        <section key={a.account} className="card" aria-label={`Small balances of ${accountName(a.account)}`}>
          <h2>{accountName(a.account)}</h2>
          {a.error !== null ? (
            <ErrorPanel error={new Error(a.error)} />
          ) : a.items.length === 0 ? (
            <p className="muted">No small balances.</p>
          ) : (
            <table className="table compact dust-rows" data-account={a.account}>
              <thead>
                <tr>
                  <th>Convert</th>
                  <th>Currency</th>
                  <th className="num">Available</th>
                  <th className="num">Estimated BTC</th>
                  <th className="num">Convertible GT</th>
                </tr>
              </thead>
              <tbody>
                {a.items.map((i) => {
                  const k = keyOf(a.account, i.currency);
                  return (
                    <tr key={i.currency} data-currency={i.currency}>
                      <td>
                        <input
                          type="checkbox"
                          checked={picked.has(k)}
                          onChange={() => toggle(k)}
                          aria-label={`Convert ${i.currency} of ${accountName(a.account)}`}
                        />
                      </td>
                      <td>
                        {i.currency}
                        <LowCapFlag currency={i.currency} lowCap={lowCap} />
                      </td>
                      <td className="num">{i.available_balance}</td>
                      <td className="num">{i.estimated_as_btc}</td>
                      <td className="num">{i.convertible_to_gt}</td>
                    </tr>
                  );
                })}
              </tbody>
              <tfoot>
                <tr data-testid="account-total">
                  <td />
                  <td>Total</td>
                  <td />
                  <td className="num">{a.total_btc}</td>
                  <td className="num">{a.total_gt}</td>
                </tr>
              </tfoot>
            </table>
          )}
        </section>
      ))}
    </>
  );
}

function DustReviewPanel({
  review,
  lowCap,
  sending,
  error,
  send,
}: {
  review: DustReview;
  lowCap: ReadonlySet<string>;
  sending: boolean;
  error: unknown;
  send: () => void;
}) {
  const blocked = review.verdict.decision === 'block';
  const accounts = new Set(review.rows.map((r) => r.account)).size;
  return (
    <section className="card" aria-label="Conversion review">
      <h2>Review</h2>
      <p>
        {review.rows.length} conversion{review.rows.length === 1 ? '' : 's'} on {accounts} account{accounts === 1 ? '' : 's'}, each sent as{' '}
        <code>POST /wallet/small_balance</code> with <code>{'{"currency": [name]}'}</code> and signed by that account's own key.
      </p>
      <table className="table compact" aria-label="Conversions to sign">
        <thead>
          <tr>
            <th>Account</th>
            <th>Currency</th>
            <th className="num">Amount</th>
            <th className="num">GT</th>
            <th>Policy</th>
          </tr>
        </thead>
        <tbody>
          {review.rows.map((r) => (
            <tr key={keyOf(r.account, r.currency)}>
              <td>{accountName(r.account)}</td>
              <td>
                {r.currency}
                <LowCapFlag currency={r.currency} lowCap={lowCap} />
              </td>
              <td className="num">{r.amount}</td>
              <td className="num">{r.convertible_to_gt}</td>
              <td className="small">{r.verdict.decision}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>The policy on the batch as a whole</h3>
      <VerdictTable verdict={review.verdict} />
      {error !== null && error !== undefined && <ErrorPanel error={error} />}
      {blocked ? (
        <p className="field-error" role="alert">
          The policy blocks this conversion: nothing can be sent.
        </p>
      ) : (
        <div className="actions">
          <button type="button" className="primary" disabled={sending} onClick={send}>
            Send {review.rows.length} conversion{review.rows.length === 1 ? '' : 's'} for signing
          </button>
        </div>
      )}
    </section>
  );
}
