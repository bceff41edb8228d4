import { useEffect, useState } from 'react';
import type { RebalancePlan } from '../../../../shared/rebalance.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { BatchPanel } from './BatchPanel.tsx';
import { PlanView } from './PlanView.tsx';
import { accountName, applyTemplate, keyOf, linesOf, rowsOf, type Row, type TargetType } from './targets.ts';

// Rebalance (issue 14): choose a currency and the accounts in scope, set targets (or a preset, or a
// template), see the plan the core makes from balances it reads itself, submit it for approval as one
// batch, then follow it. Nothing moves before the batch is signed in the confirmation window.

const CURRENCIES = ['USDT', 'BTC', 'ETH', 'USDC'];

export default function RebalancePage() {
  const [currency, setCurrency] = useState('USDT');
  const [asked, setAsked] = useState(false);
  const scope = useDeskQuery('rebalanceScope', { currency }, { enabled: asked });
  const batches = useDeskQuery('rebalanceBatches', {});
  const templates = useDeskQuery('rebalanceTemplates', {});
  const planM = useDeskMutation('rebalancePlan');
  const draft = useDeskMutation('rebalanceDraft');
  const saveT = useDeskMutation('rebalanceTemplateSave');
  const deleteT = useDeskMutation('rebalanceTemplateDelete');
  const [rows, setRows] = useState<Row[]>([]);
  const [ceiling, setCeiling] = useState('');
  const [templateName, setTemplateName] = useState('');
  const [chosenTemplate, setChosenTemplate] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [plan, setPlan] = useState<RebalancePlan | null>(null);

  useEffect(() => {
    if (scope.data) setRows(rowsOf(scope.data.accounts));
  }, [scope.data]);

  const set = (i: number, patch: Partial<Row>) => {
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    setPlan(null);
  };
  const inScope = rows.filter((r) => r.included);
  const planWith = (req: Parameters<typeof planM.mutate>[0]) => {
    setNote(null);
    draft.reset();
    planM.mutate(req, { onSuccess: setPlan });
  };
  const equalize = () => planWith({ currency, preset: { kind: 'equalize' }, accounts: inScope.map((r) => r.account) });
  const sweep = () => planWith({ currency, preset: { kind: 'sweep', ceiling: ceiling.trim() }, accounts: inScope.map((r) => r.account) });
  const useTemplate = () => {
    const t = templates.data?.find((x) => x.name === chosenTemplate);
    if (!t) return;
    if (t.currency !== currency) {
      setNote(`Template ${t.name} is for ${t.currency}: choose that currency and read the balances first.`);
      return;
    }
    const { rows: next, missing } = applyTemplate(rows, t);
    setRows(next);
    setPlan(null);
    setNote(missing.length ? `Template ${t.name} names accounts not in scope now: ${missing.join(', ')}.` : `Template ${t.name} applied.`);
  };
  // Batches under way or waiting, and the three most recent others.
  const visible = (batches.data ?? []).filter((b, i) => ['waiting', 'running', 'paused'].includes(b.state) || i < 3);

  return (
    <section className="page">
      <header className="page-header">
        <h1 tabIndex={-1}>Rebalance</h1>
      </header>
      {batches.isError && <ErrorPanel error={batches.error} />}
      {visible.map((b) => (
        <BatchPanel key={b.ref} batch={b} />
      ))}

      <section className="card" aria-label="New rebalance">
        <h2>New rebalance</h2>
        <div className="row">
          <Field label="Currency">
            <select
              value={currency}
              onChange={(e) => {
                setCurrency(e.target.value);
                setRows([]);
                setPlan(null);
              }}
            >
              {CURRENCIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </Field>
          <button type="button" onClick={() => (asked ? void scope.refetch() : setAsked(true))} disabled={scope.isFetching}>
            {scope.isFetching ? 'Reading balances…' : 'Read balances'}
          </button>
        </div>
        {scope.isError && <ErrorPanel error={scope.error} onRetry={() => void scope.refetch()} />}
        {rows.length > 0 && (
          <>
            <table className="table compact" data-testid="scope">
              <thead>
                <tr>
                  <th>In scope</th>
                  <th>Account</th>
                  <th className="num">Available</th>
                  <th>Target</th>
                  <th>Figures</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={keyOf(r.account)}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Include ${accountName(r.account, r.name)}`}
                        checked={r.included}
                        disabled={!r.reachable}
                        onChange={(e) => set(i, { included: e.target.checked })}
                      />
                    </td>
                    <td>
                      {accountName(r.account, r.name)}
                      {r.why && <div className="small muted">{r.why}</div>}
                    </td>
                    <td className="num">{r.balance}</td>
                    <td>
                      <select
                        aria-label={`Target type of ${accountName(r.account)}`}
                        value={r.type}
                        disabled={!r.included}
                        onChange={(e) => set(i, { type: e.target.value as TargetType })}
                      >
                        <option value="amount">Amount</option>
                        <option value="share">Share</option>
                        <option value="band">Band</option>
                      </select>
                    </td>
                    <td>
                      {r.type === 'amount' && (
                        <input
                          aria-label={`Target amount of ${accountName(r.account)}`}
                          value={r.amount}
                          disabled={!r.included}
                          onChange={(e) => set(i, { amount: e.target.value })}
                          size={14}
                        />
                      )}
                      {r.type === 'share' && (
                        <input
                          aria-label={`Share of ${accountName(r.account)}`}
                          placeholder="0.25 or 1/3"
                          value={r.share}
                          disabled={!r.included}
                          onChange={(e) => set(i, { share: e.target.value })}
                          size={10}
                        />
                      )}
                      {r.type === 'band' && (
                        <>
                          <input
                            aria-label={`Floor of ${accountName(r.account)}`}
                            placeholder="floor"
                            value={r.floor}
                            disabled={!r.included}
                            onChange={(e) => set(i, { floor: e.target.value })}
                            size={9}
                          />{' '}
                          <input
                            aria-label={`Ceiling of ${accountName(r.account)}`}
                            placeholder="ceiling"
                            value={r.ceiling}
                            disabled={!r.included}
                            onChange={(e) => set(i, { ceiling: e.target.value })}
                            size={9}
                          />
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="actions">
              <button
                type="button"
                onClick={() => {
                  setRows((rs) => rs.map((r) => ({ ...r, included: r.reachable })));
                  setPlan(null);
                }}
              >
                Include all
              </button>
              <button
                type="button"
                onClick={() => {
                  setRows((rs) => rs.map((r) => ({ ...r, included: false })));
                  setPlan(null);
                }}
              >
                Include none
              </button>
              <button
                type="button"
                className="primary"
                disabled={!inScope.length || planM.isPending}
                onClick={() => planWith({ currency, lines: linesOf(rows) })}
              >
                Plan
              </button>
            </div>
            <div className="row">
              <button type="button" disabled={!inScope.length || planM.isPending} onClick={equalize}>
                Equalize
              </button>
              <Field label="Ceiling">
                <input value={ceiling} onChange={(e) => setCeiling(e.target.value)} size={10} />
              </Field>
              <button type="button" disabled={!inScope.length || !ceiling.trim() || planM.isPending} onClick={sweep}>
                Sweep above the ceiling to the main account
              </button>
            </div>
            <div className="row">
              <Field label="Template">
                <select value={chosenTemplate} onChange={(e) => setChosenTemplate(e.target.value)}>
                  <option value="">Choose…</option>
                  {(templates.data ?? []).map((t) => (
                    <option key={t.name} value={t.name}>
                      {t.name} ({t.currency}, {t.lines.length} accounts)
                    </option>
                  ))}
                </select>
              </Field>
              <button type="button" disabled={!chosenTemplate} onClick={useTemplate}>
                Use template
              </button>
              <button
                type="button"
                disabled={!chosenTemplate || deleteT.isPending}
                onClick={() =>
                  deleteT.mutate(
                    { name: chosenTemplate },
                    {
                      onSuccess: () => {
                        setNote(`Template ${chosenTemplate} deleted.`);
                        setChosenTemplate('');
                      },
                    },
                  )
                }
              >
                Delete template
              </button>
              <Field label="Save targets as">
                <input value={templateName} onChange={(e) => setTemplateName(e.target.value)} size={16} />
              </Field>
              <button
                type="button"
                disabled={!templateName.trim() || !inScope.length || saveT.isPending}
                onClick={() =>
                  saveT.mutate(
                    { name: templateName.trim(), currency, lines: linesOf(rows) },
                    { onSuccess: () => setNote(`Template ${templateName.trim()} saved.`) },
                  )
                }
              >
                Save template
              </button>
            </div>
          </>
        )}
        {templates.isError && <ErrorPanel error={templates.error} />}
        {saveT.isError && <ErrorPanel error={saveT.error} />}
        {deleteT.isError && <ErrorPanel error={deleteT.error} />}
        {note && (
          <p className="muted" role="status">
            {note}
          </p>
        )}
      </section>

      {planM.isError && <ErrorPanel error={planM.error} />}
      {plan && <PlanView plan={plan} />}
      {plan && !plan.unreachable.length && plan.transfers.length > 0 && !draft.data && (
        <div className="actions">
          <button type="button" className="primary" disabled={draft.isPending} onClick={() => draft.mutate({ plan: plan.id })}>
            Submit for approval
          </button>
        </div>
      )}
      {draft.isError && <ErrorPanel error={draft.error} />}
      {draft.data && (
        <p role="status" data-testid="submitted">
          Sent to the confirmation window: {draft.data.title}. Sign it there; it runs once approved.
        </p>
      )}
    </section>
  );
}
