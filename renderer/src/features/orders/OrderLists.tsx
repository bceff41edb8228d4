import { FINISH_AS, type SpotOrder } from '../../../../shared/api/orders.ts';
import { tradeTimeMs } from '../../../../shared/api/tradeTime.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { RequestOutcome } from '../approvals/index.ts';
import { useCancel } from './useCancel.ts';
import { timeOfDay } from '../../components/localTime.ts';

/** Orders and trades are read again this often, so fills show as they arrive. */
export const ORDERS_POLL_MS = 3_000;

export function finishAsWords(v: string): string {
  return (FINISH_AS as Record<string, string>)[v] ?? v;
}

/** An order's `create_time_ms` is an integer of milliseconds (the live Order model). */
function when(ms: number): string {
  return timeOfDay(ms);
}

/** Open orders (cancel one, or all of the pair), finished orders with finish_as in words, and trades. */
export function OrderLists({ pair, sub }: { pair: string; sub?: string }) {
  const who = sub ? { sub_uid: sub } : {};
  const open = useDeskQuery('spotOrders', { currency_pair: pair, status: 'open', ...who }, { refetchIntervalMs: ORDERS_POLL_MS });
  const done = useDeskQuery('spotOrders', { currency_pair: pair, status: 'finished', ...who }, { refetchIntervalMs: ORDERS_POLL_MS });
  const trades = useDeskQuery('spotTrades', { currency_pair: pair, ...who }, { refetchIntervalMs: ORDERS_POLL_MS });
  const cancel = useCancel();
  const row = (o: SpotOrder) => (
    <>
      <td>{when(o.create_time_ms)}</td>
      <td>{o.side}</td>
      <td>{o.type}</td>
      <td className="num mono">{o.type === 'market' ? 'market' : o.price}</td>
      <td className="num mono">{o.amount}</td>
      <td className="num mono">{o.filled_amount}</td>
      <td className="mono small">{o.text}</td>
    </>
  );
  return (
    <div className="lists">
      <section className="card" aria-label="Open orders">
        <h2>Open orders</h2>
        {open.isError && <ErrorPanel error={open.error} />}
        {cancel.error !== null && <ErrorPanel error={cancel.error} />}
        {cancel.note && (
          <p role="status" className="small">
            {cancel.note}
          </p>
        )}
        {cancel.drafted && <RequestOutcome requestRef={cancel.drafted.ref} title={cancel.drafted.title} />}
        <table className="table compact" data-testid="open-orders">
          <thead>
            <tr>
              <th>Time</th>
              <th>Side</th>
              <th>Type</th>
              <th className="num">Price</th>
              <th className="num">Amount</th>
              <th className="num">Filled</th>
              <th>Text</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {open.data?.map((o) => (
              <tr key={o.id} data-order={o.id}>
                {row(o)}
                <td>
                  <button
                    type="button"
                    disabled={cancel.busy}
                    onClick={() =>
                      void cancel.run({
                        kind: 'spot_cancel',
                        input: { currency_pair: pair, order_id: o.id, account: o.account === 'margin' ? 'margin' : 'spot', ...who },
                      })
                    }
                  >
                    Cancel
                  </button>
                </td>
              </tr>
            ))}
            {open.data?.length === 0 && (
              <tr>
                <td colSpan={8} className="muted">
                  No open orders in {pair}.
                </td>
              </tr>
            )}
          </tbody>
        </table>
        {!!open.data?.length && (
          <div className="actions">
            <button
              type="button"
              disabled={cancel.busy}
              onClick={() => void cancel.run({ kind: 'spot_cancel_all', input: { currency_pair: pair, ...who } })}
            >
              Cancel all {pair} orders
            </button>
          </div>
        )}
      </section>
      <section className="card" aria-label="Order history">
        <h2>Order history</h2>
        {done.isError && <ErrorPanel error={done.error} />}
        <table className="table compact" data-testid="order-history">
          <thead>
            <tr>
              <th>Time</th>
              <th>Side</th>
              <th>Type</th>
              <th className="num">Price</th>
              <th className="num">Amount</th>
              <th className="num">Filled</th>
              <th>Text</th>
              <th>How it ended</th>
              <th className="num">Fee</th>
            </tr>
          </thead>
          <tbody>
            {done.data?.map((o) => (
              <tr key={o.id} data-order={o.id} data-finish-as={o.finish_as}>
                {row(o)}
                <td title={o.finish_as}>{finishAsWords(o.finish_as)}</td>
                <td className="num mono">
                  {o.fee} {o.fee_currency}
                </td>
              </tr>
            ))}
            {done.data?.length === 0 && (
              <tr>
                <td colSpan={9} className="muted">
                  No finished orders in {pair}.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </section>
      <section className="card" aria-label="Trades">
        <h2>Trades</h2>
        {trades.isError && <ErrorPanel error={trades.error} />}
        <table className="table compact" data-testid="trades">
          <thead>
            <tr>
              <th>Time</th>
              <th>Side</th>
              <th>Role</th>
              <th className="num">Price</th>
              <th className="num">Amount</th>
              <th className="num">Fee</th>
              <th>Order</th>
            </tr>
          </thead>
          <tbody>
            {trades.data?.map((t) => (
              <tr key={t.id} data-trade={t.id}>
                <td>{when(tradeTimeMs(t))}</td>
                <td>{t.side}</td>
                <td>{t.role}</td>
                <td className="num mono">{t.price}</td>
                <td className="num mono">{t.amount}</td>
                <td className="num mono">
                  {t.fee} {t.fee_currency}
                </td>
                <td className="mono small">{t.order_id}</td>
              </tr>
            ))}
            {trades.data?.length === 0 && (
              <tr>
                <td colSpan={7} className="muted">
                  No trades in {pair}.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </section>
    </div>
  );
}
