import { useSearchParams } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { MarketPanel } from './MarketPanel.tsx';
import { OrderForm } from './OrderForm.tsx';
import { OrderLists } from './OrderLists.tsx';
import { SentOrders } from './SentOrders.tsx';
import './orders.css';

const DEFAULT_PAIR = 'BTC_USDT';

/**
 * #/orders places, follows and cancels spot orders of the main account; #/orders?sub=<uid> those of a
 * sub-account whose key the profile holds (each signed with that key), reached from its row.
 */
export default function OrdersPage() {
  const [search, setSearch] = useSearchParams();
  const pairId = search.get('pair') ?? DEFAULT_PAIR;
  const rawSub = search.get('sub');
  const sub = rawSub && /^\d{1,20}$/.test(rawSub) ? rawSub : undefined;
  const profile = useDeskQuery('profileCurrent', {});
  const pairs = useDeskQuery('spotPairs', {});
  const pair = pairs.data?.find((p) => p.id === pairId);
  const holdsKey = sub === undefined || (profile.data?.sub_keys.some((k) => k.uid === sub) ?? false);
  const choose = (next: Record<string, string | undefined>) => {
    const s = new URLSearchParams(search);
    for (const [k, v] of Object.entries(next))
      if (v === undefined) s.delete(k);
      else s.set(k, v);
    setSearch(s);
  };
  return (
    <section className="page orders">
      <header className="page-header">
        <h1>Orders</h1>
        <span data-testid="orders-owner">
          {sub ? (
            <>
              Sub-account <strong>{sub}</strong>, signed with its own key
            </>
          ) : (
            'Main account'
          )}
        </span>
        <label className="inline">
          Pair
          <select aria-label="Pair" value={pairId} onChange={(e) => choose({ pair: e.target.value })}>
            {(pairs.data ?? [{ id: pairId }]).map((p) => (
              <option key={p.id} value={p.id}>
                {p.id.replace('_', ' / ')}
              </option>
            ))}
          </select>
        </label>
      </header>
      {pairs.isError && <ErrorPanel error={pairs.error} />}
      {pairs.data && !pair && (
        <p className="error-panel" role="alert">
          The exchange lists no pair {pairId}.
        </p>
      )}
      {rawSub !== null && sub === undefined && (
        <p className="error-panel" role="alert">
          “{rawSub}” is not a sub-account uid.
        </p>
      )}
      {profile.data && !holdsKey && (
        <p className="error-panel" role="alert" data-testid="no-sub-key">
          This profile holds no key for sub-account {sub}, so the desk cannot place or read its orders. Add the key in Settings.
        </p>
      )}
      {pair && holdsKey && (
        <>
          <div className="orders-grid">
            <OrderForm key={`${pair.id}-${sub ?? ''}`} pair={pair} {...(sub ? { sub } : {})} />
            <MarketPanel pair={pair.id} />
          </div>
          <SentOrders pair={pair.id} {...(sub ? { sub } : {})} />
          <OrderLists pair={pair.id} {...(sub ? { sub } : {})} />
        </>
      )}
    </section>
  );
}
