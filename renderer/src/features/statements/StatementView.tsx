import type { Movement, Statement, StatementFormat } from '../../../../shared/statements.ts';
import { dateTime } from '../../components/localTime.ts';
import type { Period } from './period.ts';

/** Rows drawn on the page; the CSV holds every movement. */
const SHOWN = 1_000;

const SOURCE = { both: 'desk and exchange', book: "exchange's book only", desk: "desk's records only" } as const;

function figure(label: string, value: string, currency: string, testId: string) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className="num" data-testid={testId}>
        {value} {currency}
      </dd>
    </div>
  );
}

/** A built statement: its figures, what does not add up, what it does not cover, and every movement. */
export function StatementView({
  statement: s,
  period,
  onDownload,
  issuing,
}: {
  statement: Statement;
  period: Period;
  onDownload: (format: StatementFormat) => void;
  issuing: boolean;
}) {
  const rows = s.movements.slice(0, SHOWN);
  return (
    <section className="statement" aria-label={`Statement of ${s.account_label}, ${s.currency}`} data-testid="statement">
      <header className="page-header">
        <h2>
          {s.account_label} · {s.currency}
        </h2>
        <div className="actions">
          <button type="button" onClick={() => onDownload('csv')} disabled={issuing}>
            Download CSV
          </button>
          <button type="button" onClick={() => onDownload('pdf')} disabled={issuing}>
            Download PDF
          </button>
        </div>
      </header>
      <p className="muted">
        {period.local} · UTC {period.utc}
      </p>
      <dl className="statement-figures">
        {figure('Opening balance', s.opening, s.currency, 'statement-opening')}
        {figure('Money in', s.total_in, s.currency, 'statement-in')}
        {figure('Money out', s.total_out, s.currency, 'statement-out')}
        {figure('Opening + movements', s.computed_closing, s.currency, 'statement-computed')}
        {figure("Exchange's closing balance", s.closing, s.currency, 'statement-closing')}
        {figure('Difference', s.difference, s.currency, 'statement-difference')}
      </dl>
      <p className="muted small">Balances from {s.balances_from}.</p>
      {s.unexplained.length === 0 ? (
        <p className="notice" data-testid="statement-reconciled">
          Every movement is explained: opening + movements is the exchange's closing balance.
        </p>
      ) : (
        <div className="error-panel" role="alert" data-testid="statement-unexplained">
          <strong>Not everything adds up.</strong>
          <ul>
            {s.unexplained.map((u) => (
              <li key={u.sentence}>{u.sentence}</li>
            ))}
          </ul>
        </div>
      )}
      <ul className="muted small">
        {s.scope.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <MovementTable rows={rows} currency={s.currency} />
      {s.movements.length > SHOWN && (
        <p className="muted">
          The first {SHOWN} of {s.movements.length} movements are shown; the CSV holds every one.
        </p>
      )}
    </section>
  );
}

function MovementTable({ rows, currency }: { rows: Movement[]; currency: string }) {
  if (rows.length === 0) return <p className="muted">No movement in the period.</p>;
  return (
    <table className="table compact statement-table statement-movements" aria-label="Movements" data-testid="statement-movements">
      <colgroup>
        <col className="col-when" />
        <col className="col-type" />
        <col className="col-figure" />
        <col className="col-fee" />
        <col className="col-figure" />
        <col />
        <col />
      </colgroup>
      <thead>
        <tr>
          <th>When</th>
          <th>Type</th>
          <th className="num">Amount ({currency})</th>
          <th className="num">Fee</th>
          <th className="num">Balance after</th>
          <th>Exchange id</th>
          <th>Desk id · approved by</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((m, i) => (
          <tr key={`${m.at} ${m.exchange_id} ${m.type} ${i}`} data-counted={m.counted} title={`From the ${SOURCE[m.source]}`}>
            <td>{dateTime(m.at)}</td>
            <td className="wrap">
              {m.type.replaceAll('_', ' ')}
              {!m.counted && <strong> (not explained)</strong>}
              {m.source === 'desk' && <strong> (not in the exchange's book)</strong>}
            </td>
            <td className="num">{m.amount}</td>
            <td className="num">{m.fee}</td>
            <td className="num">{m.balance_after}</td>
            <td className="wrap mono">{m.exchange_id}</td>
            <td className="wrap">
              <span className="mono">{m.desk_id || '—'}</span>
              {m.approved_by && <> · {m.approved_by}</>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
