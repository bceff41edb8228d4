import { useState, type ChangeEvent } from 'react';
import { z } from 'zod';
import type { Statement, StatementEvery, StatementFormat } from '../../../../shared/statements.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { fileBase64 } from '../../components/fileBase64.ts';
import { saveBase64 } from '../../components/saveText.ts';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { deskTimeZone, periodOf, type Period } from './period.ts';
import { EverySummary } from './EverySummary.tsx';
import { StatementView } from './StatementView.tsx';
import './statements.css';

/** The largest statement file Verify reads (the channel's own limit). */
const MAX_VERIFY_BYTES = 20 * 1024 * 1024;

const thisMonth = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};

/** The Account choice that builds one statement for each account the profile can read. */
const EVERY = 'every';

/** The form as typed, made the request the core checks again (StatementRequest) and the period as shown. */
const StatementForm = z
  .object({
    account: z.string().min(1, 'Pick an account'),
    /** One currency, or several separated by commas or spaces ("USDT, BTC"); a problem is the field's own. */
    currency: z.string().transform((typed, ctx) => {
      const list = typed
        .toUpperCase()
        .split(/[\s,]+/)
        .filter(Boolean);
      const bad = list.find((c) => !/^[A-Z0-9_]{1,20}$/.test(c));
      const problem =
        list.length === 0
          ? 'Name a currency, like USDT'
          : bad !== undefined
            ? `${bad} is not a currency name, like USDT`
            : list.length > 10
              ? 'At most 10 currencies at once'
              : new Set(list).size < list.length
                ? 'A currency is named twice'
                : null;
      if (problem === null) return list;
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }),
    kind: z.enum(['day', 'month', 'custom']),
    start: z.string(),
    end: z.string(),
  })
  .transform((v, ctx) => {
    const timeZone = deskTimeZone();
    try {
      const period = periodOf(v, timeZone);
      const at = { from: period.from, to: period.to, time_zone: timeZone };
      return { account: v.account, currencies: v.currency, at, period };
    } catch (e) {
      const message = (e as Error).message;
      ctx.addIssue({ code: 'custom', message, path: [message.startsWith('The last day') ? 'end' : 'start'] });
      return z.NEVER;
    }
  });
type StatementForm = z.input<typeof StatementForm>;

/**
 * A statement of one account and currency for a period (or several, side by side): the exchange's opening
 * balance, every movement named by the desk's records, the closing balance and what does not add up.
 * Downloaded as CSV or PDF, each file is issued with its SHA-256 in the journal; Verify tells an issued
 * file from a changed one.
 */
export default function StatementsPage() {
  const accounts = useDeskQuery('statementAccounts', {});
  const build = useDeskMutation('statementBuild');
  const buildEvery = useDeskMutation('statementBuildEvery');
  const openOne = useDeskMutation('statementGet');
  const building = build.isPending || buildEvery.isPending;
  const cancel = useDeskMutation('statementCancel');
  const issue = useDeskMutation('statementIssue');
  const progress = useDeskQuery('statementProgress', {}, { enabled: building, refetchIntervalMs: 500 });
  const [shown, setShown] = useState<{ statement: Statement; period: Period } | null>(null);
  const [every, setEvery] = useState<{ every: StatementEvery; period: Period } | null>(null);
  const { register, handleSubmit, watch, formState } = useDeskForm(StatementForm, {
    defaultValues: { account: 'main', currency: 'USDT', kind: 'month', start: thisMonth(), end: '' } satisfies StatementForm,
    at: [],
  });
  const kind = watch('kind');
  const errors = formState.errors;

  // One account and one currency open its statement; more of either list them side by side first.
  const submit = handleSubmit(({ account, currencies, at, period }) => {
    issue.reset();
    setShown(null);
    setEvery(null);
    if (account !== EVERY && currencies.length === 1)
      build.mutate({ ...at, account, currency: currencies[0]! }, { onSuccess: (statement) => setShown({ statement, period }) });
    else
      buildEvery.mutate(
        { ...at, currencies, ...(account === EVERY ? {} : { accounts: [account] }) },
        { onSuccess: (result) => setEvery({ every: result, period }) },
      );
  });
  const download = (s: Statement, format: StatementFormat) =>
    issue.mutate(
      { id: s.id, format },
      { onSuccess: (f) => saveBase64(f.content_base64, f.filename, format === 'csv' ? 'text/csv' : 'application/pdf') },
    );

  return (
    <section className="page statements">
      <header className="page-header">
        <h1 tabIndex={-1}>Statements</h1>
      </header>
      <p className="muted">
        One account's spot balance of one currency over a period, or every account's side by side: the exchange's opening balance, every
        movement of its account book named by the desk's own records, and its closing balance. Whatever the records and the book do not
        agree on is named below the figures.
      </p>
      {accounts.isError && <ErrorPanel error={accounts.error} onRetry={() => void accounts.refetch()} />}
      <form className="row" aria-label="Statement" onSubmit={(e) => void submit(e)} noValidate>
        <Field label="Account" error={fieldMessage(errors.account)}>
          <select {...register('account')}>
            <option value={EVERY}>Every account ({(accounts.data ?? []).filter((a) => a.readable).length || 1})</option>
            {(accounts.data ?? [{ account: 'main', label: 'Main account', readable: true }]).map((a) => (
              <option key={a.account} value={a.account} disabled={!a.readable} title={a.why}>
                {a.label}
                {a.readable ? '' : ' (no key)'}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Currency" hint="One, or several: USDT, BTC" error={fieldMessage(errors.currency)}>
          <input {...register('currency')} size={10} autoComplete="off" />
        </Field>
        <Field label="Period">
          <select {...register('kind')}>
            <option value="day">A day</option>
            <option value="month">A month</option>
            <option value="custom">From a day to a day</option>
          </select>
        </Field>
        <Field label={kind === 'month' ? 'Month' : kind === 'day' ? 'Day' : 'First day'} error={fieldMessage(errors.start)}>
          <input type={kind === 'month' ? 'month' : 'date'} {...register('start')} />
        </Field>
        {kind === 'custom' && (
          <Field label="Last day" error={fieldMessage(errors.end)}>
            <input type="date" {...register('end')} />
          </Field>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={building}>
            {building ? 'Building…' : 'Build statement'}
          </button>
          {building && (
            <button type="button" onClick={() => cancel.mutate({})}>
              Cancel
            </button>
          )}
        </div>
      </form>
      {building && (
        <p className="muted" role="status">
          {progress.data?.unit === 'statements' && progress.data.of > 0
            ? `Reading the exchange's account books: statement ${progress.data.done + 1} of ${progress.data.of}…`
            : `Reading the exchange's account book${
                progress.data && progress.data.of > 0 ? `: ${progress.data.done} of ${progress.data.of} windows of 30 days` : '…'
              }`}
        </p>
      )}
      {build.isError && <ErrorPanel error={build.error} />}
      {buildEvery.isError && <ErrorPanel error={buildEvery.error} />}
      {every && !building && (
        <EverySummary
          every={every.every}
          onShow={(summary) => {
            issue.reset();
            openOne.mutate({ id: summary.id }, { onSuccess: (statement) => setShown({ statement, period: every.period }) });
          }}
        />
      )}
      {openOne.isError && <ErrorPanel error={openOne.error} />}
      {shown && !building && (
        <StatementView
          statement={shown.statement}
          period={shown.period}
          onDownload={(format) => download(shown.statement, format)}
          issuing={issue.isPending}
        />
      )}
      {issue.isError && <ErrorPanel error={issue.error} />}
      {issue.data && (
        <p className="notice" role="status" data-testid="statement-issued">
          Issued {issue.data.filename}: SHA-256 <span className="mono">{issue.data.sha256}</span>, recorded in the journal.
        </p>
      )}
      <VerifyStatement />
    </section>
  );
}

/** A statement file handed back: whether it is, to the byte, one the desk issued. */
function VerifyStatement() {
  const verify = useDeskMutation('statementVerify');
  const [readError, setReadError] = useState<unknown>(null);
  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    verify.reset();
    setReadError(null);
    if (!f) return;
    fileBase64(f, MAX_VERIFY_BYTES, 'a statement file').then((content_base64) => verify.mutate({ content_base64 }), setReadError);
  };
  return (
    <section className="statement-verify" aria-label="Verify a statement">
      <h2>Verify a statement</h2>
      <Field label="Statement file" hint="A CSV or PDF this desk issued: it verifies only if not one byte has changed since.">
        <input type="file" accept=".csv,text/csv,.pdf,application/pdf" onChange={pick} />
      </Field>
      {readError !== null && <ErrorPanel error={readError} />}
      {verify.isError && <ErrorPanel error={verify.error} />}
      {verify.data && (
        <p className={verify.data.ok ? 'notice' : 'error-panel'} role="status" data-testid="statement-verdict">
          <strong>{verify.data.ok ? 'Verified.' : 'Does not verify.'}</strong> {verify.data.sentence}
        </p>
      )}
    </section>
  );
}
