import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';

/** How often the ticker and the book are read again while the page is open (through the scheduler). */
export const MARKET_POLL_MS = 2_000;

/** The pair's ticker and the top of its book, read again every two seconds. */
export function MarketPanel({ pair }: { pair: string }) {
  const ticker = useDeskQuery('spotTicker', { currency_pair: pair }, { refetchIntervalMs: MARKET_POLL_MS });
  const book = useDeskQuery('spotOrderBook', { currency_pair: pair, limit: 8 }, { refetchIntervalMs: MARKET_POLL_MS });
  const t = ticker.data;
  return (
    <section className="card" aria-label="Market">
      <h2>{pair.replace('_', ' / ')}</h2>
      {ticker.isError && <ErrorPanel error={ticker.error} />}
      {t && (
        <p data-testid="ticker">
          Last <strong className="mono">{t.last}</strong> · bid <span className="mono">{t.highest_bid || '—'}</span> · ask{' '}
          <span className="mono">{t.lowest_ask || '—'}</span>
        </p>
      )}
      {book.isError && <ErrorPanel error={book.error} />}
      {book.data && (
        <table className="table compact book" aria-label="Order book" data-testid="order-book">
          <thead>
            <tr>
              <th>Side</th>
              <th className="num">Price</th>
              <th className="num">Amount</th>
            </tr>
          </thead>
          <tbody>
            {[...book.data.asks].reverse().map(([p, a]) => (
              <tr key={`a${p}`} className="ask">
                <td>ask</td>
                <td className="num mono">{p}</td>
                <td className="num mono">{a}</td>
              </tr>
            ))}
            {book.data.bids.map(([p, a]) => (
              <tr key={`b${p}`} className="bid">
                <td>bid</td>
                <td className="num mono">{p}</td>
                <td className="num mono">{a}</td>
              </tr>
            ))}
            {book.data.asks.length + book.data.bids.length === 0 && (
              <tr>
                <td colSpan={3} className="muted">
                  The book is empty.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
