import { useEffect, useId, useMemo, useRef, useState, type ComponentProps } from 'react';
import { useFieldArray } from 'react-hook-form';
import type { RebalancePlan } from '../../../../shared/rebalance.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { BatchPanel } from './BatchPanel.tsx';
import { PlanView } from './PlanView.tsx';
import { accountName, applyTemplate, keyOf, mergeScope, rowsOf, type Row } from './targets.ts';
import { renamedOf, requestOf, TARGETS_DEFAULTS, targetsFormSchema, type Action, type TargetsValues } from './targetsForm.ts';

// Rebalance (docs/rebalance.md): choose a currency and the accounts in scope, set targets (or a preset, or a
// template), see the plan the core makes from balances it reads itself, submit it for approval as one
// batch, then follow it. Nothing moves before the batch is signed in the confirmation window.

const CURRENCIES = ['USDT', 'BTC', 'ETH', 'USDC'];

/** A figure typed in the targets table, its problem said under it. */
function FigureInput({ label, error, ...rest }: { label: string; error: string | undefined } & ComponentProps<'input'>) {
  const id = useId();
  return (
    <>
      <input aria-label={label} aria-invalid={error ? true : undefined} aria-describedby={error ? id : undefined} {...rest} />
      {error && (
        <div id={id} className="field-error">
          {error}
        </div>
      )}
    </>
  );
}

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
  const [chosenTemplate, setChosenTemplate] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [plan, setPlan] = useState<RebalancePlan | null>(null);
  // The buttons share one form: the check reads which was pressed and the currency when it runs.
  const action = useRef<Action>('plan');
  const currencyNow = useRef(currency);
  currencyNow.current = currency;
  const schema = useMemo(
    () =>
      targetsFormSchema(
        () => action.current,
        () => currencyNow.current,
      ),
    [],
  );
  const { register, control, handleSubmit, watch, getValues, setValue, onField, putOnField, formState } = useDeskForm(schema, {
    defaultValues: TARGETS_DEFAULTS,
    renamed: renamedOf,
  });
  const errors = formState.errors;
  const { replace } = useFieldArray({ control, name: 'rows' });
  /** Set while a new read's figures are written into the rows: those are not the operator's change. */
  const figuresOnly = useRef(false);
  const rows = watch('rows');

  // The scope is read again whenever money moves or the window comes back into focus: the figures follow,
  // what the operator chose stays, and the rows (and the plan under them) are not made again, so neither a
  // click nor focus is lost under a read they did not ask for.
  useEffect(() => {
    if (!scope.data) return;
    const current = getValues('rows');
    const merged = mergeScope(current, rowsOf(scope.data.accounts));
    const same = merged.length === current.length && merged.every((r, i) => keyOf(r.account) === keyOf(current[i]!.account));
    if (!same) return replace(merged);
    figuresOnly.current = true;
    try {
      merged.forEach((r, i) => {
        const was = current[i]!;
        for (const f of ['name', 'balance', 'reachable', 'why', 'included'] as const)
          if (r[f] !== was[f]) setValue(`rows.${i}.${f}`, r[f], { shouldDirty: false });
      });
    } finally {
      figuresOnly.current = false;
    }
    // An account that can no longer be moved left the scope: the plan that moved it is set aside.
    if (merged.some((r, i) => r.included !== current[i]!.included)) setPlan(null);
  }, [scope.data, replace, getValues, setValue]);
  // A plan is for the targets it was made from: a change of them sets it aside (new figures alone do not).
  useEffect(() => {
    const sub = watch((_, { name }) => {
      if (name?.startsWith('rows') && !figuresOnly.current) setPlan(null);
    });
    return () => sub.unsubscribe();
  }, [watch]);

  const setRows = (next: Row[]) => {
    replace(next);
    setPlan(null);
  };
  const inScope = rows.filter((r) => r.included);
  const press = (act: Action, run: (v: TargetsValues) => void) => () => {
    action.current = act;
    void handleSubmit(run)();
  };
  const planWith = (req: Parameters<typeof planM.mutate>[0]) => {
    setNote(null);
    draft.reset();
    planM.mutate(req, { onSuccess: setPlan, onError: putOnField });
  };
  const planTargets = press('plan', (v) => planWith(requestOf('plan', currency, v) as Parameters<typeof planM.mutate>[0]));
  const equalize = press('equalize', (v) => planWith(requestOf('equalize', currency, v) as Parameters<typeof planM.mutate>[0]));
  const sweep = press('sweep', (v) => planWith(requestOf('sweep', currency, v) as Parameters<typeof planM.mutate>[0]));
  const saveTemplate = press('template', (v) => {
    const req = requestOf('template', currency, v) as Parameters<typeof saveT.mutate>[0];
    saveT.mutate(req, { onSuccess: () => setNote(`Template ${req.name} saved.`), onError: putOnField });
  });
  const useTemplate = () => {
    const t = templates.data?.find((x) => x.name === chosenTemplate);
    if (!t) return;
    if (t.currency !== currency) {
      setNote(`Template ${t.name} is for ${t.currency}: choose that currency and read the balances first.`);
      return;
    }
    const { rows: next, missing } = applyTemplate(getValues('rows'), t);
    setRows(next);
    setNote(missing.length ? `Template ${t.name} names accounts not in scope now: ${missing.join(', ')}.` : `Template ${t.name} applied.`);
  };
  // Every batch until the operator archives it (the core keeps the list across restarts).
  const visible = batches.data ?? [];
  const rowError = (i: number, f: 'amount' | 'share' | 'floor' | 'ceiling') => fieldMessage(errors.rows?.[i]?.[f]);
  const ceiling = watch('ceiling');
  const templateName = watch('template_name');

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
                        disabled={!r.reachable}
                        {...register(`rows.${i}.included`)}
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
                        disabled={!r.included}
                        {...register(`rows.${i}.type`)}
                      >
                        <option value="amount">Amount</option>
                        <option value="share">Share</option>
                        <option value="band">Band</option>
                        <option value="remainder">Takes the remainder</option>
                      </select>
                    </td>
                    <td>
                      {r.type === 'amount' && (
                        <FigureInput
                          label={`Target amount of ${accountName(r.account)}`}
                          error={rowError(i, 'amount')}
                          disabled={!r.included}
                          {...register(`rows.${i}.amount`)}
                          size={14}
                        />
                      )}
                      {r.type === 'remainder' && (
                        <span className="small muted">Ends with what the other targets leave (one account only)</span>
                      )}
                      {r.type === 'share' && (
                        <FigureInput
                          label={`Share of ${accountName(r.account)}`}
                          error={rowError(i, 'share')}
                          placeholder="0.25 or 1/3"
                          disabled={!r.included}
                          {...register(`rows.${i}.share`)}
                          size={10}
                        />
                      )}
                      {r.type === 'band' && (
                        <>
                          <FigureInput
                            label={`Floor of ${accountName(r.account)}`}
                            error={rowError(i, 'floor')}
                            placeholder="floor"
                            disabled={!r.included}
                            {...register(`rows.${i}.floor`)}
                            size={9}
                          />{' '}
                          <FigureInput
                            label={`Ceiling of ${accountName(r.account)}`}
                            error={rowError(i, 'ceiling')}
                            placeholder="ceiling"
                            disabled={!r.included}
                            {...register(`rows.${i}.ceiling`)}
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
              <button type="button" onClick={() => setRows(getValues('rows').map((r) => ({ ...r, included: r.reachable })))}>
                Include all
              </button>
              <button type="button" onClick={() => setRows(getValues('rows').map((r) => ({ ...r, included: false })))}>
                Include none
              </button>
              <button type="button" className="primary" disabled={!inScope.length || planM.isPending} onClick={planTargets}>
                Plan
              </button>
            </div>
            <div className="row">
              <button type="button" disabled={!inScope.length || planM.isPending} onClick={equalize}>
                Equalize
              </button>
              <Field label="Ceiling" error={fieldMessage(errors.ceiling)}>
                <input {...register('ceiling')} size={10} />
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
              <Field label="Save targets as" error={fieldMessage(errors.template_name)}>
                <input {...register('template_name')} size={16} />
              </Field>
              <button type="button" disabled={!templateName.trim() || !inScope.length || saveT.isPending} onClick={saveTemplate}>
                Save template
              </button>
            </div>
          </>
        )}
        {templates.isError && <ErrorPanel error={templates.error} />}
        {saveT.isError && !onField(saveT.error) && <ErrorPanel error={saveT.error} />}
        {errors.root && (
          <p className="field-error" role="alert">
            {fieldMessage(errors.root)}
          </p>
        )}
        {deleteT.isError && <ErrorPanel error={deleteT.error} />}
        {note && (
          <p className="muted" role="status">
            {note}
          </p>
        )}
      </section>

      {planM.isError && !onField(planM.error) && <ErrorPanel error={planM.error} />}
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
