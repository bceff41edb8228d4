import type { StatementEvery, StatementSummary } from '../../../../shared/statements.ts';

/**
 * Every account's statements side by side: what finance asks for at month end, each row
 * reconciled or saying how many movements are not explained; Show opens one for its money in and out,
 * its movements and its files.
 */
export function EverySummary({ every, onShow }: { every: StatementEvery; onShow: (s: StatementSummary) => void }) {
  const open = every.statements.filter((s) => s.difference !== '0' || s.unexplained.length > 0).length;
  const n = every.statements.length;
  return (
    <section className="statement-every" aria-label="Every account" data-testid="every-statements">
      <p className={open === 0 ? 'notice' : 'error-panel'} role="status">
        {open === 0
          ? `All ${n} statements reconcile: each one's opening + movements is the exchange's closing balance.`
          : `${open} of ${n} statements do not reconcile: open them for what is not explained.`}
      </p>
      <table className="table compact statement-table">
        <colgroup>
          <col />
          <col className="col-currency" />
          <col className="col-figure" />
          <col className="col-figure" />
          <col className="col-difference" />
          <col className="col-count" />
          <col className="col-open" />
        </colgroup>
        <thead>
          <tr>
            <th>Account</th>
            <th>Currency</th>
            <th className="num">Opening</th>
            <th className="num">Closing</th>
            <th className="num">Difference</th>
            <th>Movements</th>
            <th aria-label="Open" />
          </tr>
        </thead>
        <tbody>
          {every.statements.map((s) => (
            <tr key={s.id} data-account={s.account} data-currency={s.currency}>
              <td className="wrap">{s.account_label}</td>
              <td>{s.currency}</td>
              <td className="num">{s.opening}</td>
              <td className="num">{s.closing}</td>
              <td className="num">{s.difference}</td>
              <td className="wrap">
                {s.movement_count}
                {s.unexplained.length > 0 ? `, ${s.unexplained.reduce((n, u) => n + u.count, 0)} not explained` : ', all explained'}
              </td>
              <td>
                <button type="button" onClick={() => onShow(s)}>
                  Show
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {every.unreadable.length > 0 && (
        <p className="muted small">
          Not in it: {every.unreadable.map((a) => a.label).join(', ')}: {every.unreadable[0]!.why}.
        </p>
      )}
    </section>
  );
}
