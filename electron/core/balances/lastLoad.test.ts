import { describe, expect, it } from 'vitest';
import { BalanceStore } from './store.ts';
import { readLastLoad, RECORDS_PER_STEP, saveLastLoad } from './lastLoad.ts';
import { entriesInSteps, entriesOf, rowOf, valuedInSteps } from './matrix.ts';
import { Prices } from './valuation.ts';

// A new process reads the kept load of 1,000 sub-accounts back while the window's first files and reads
// arrive (docs/performance.md §Opening the desk): in steps, so that each of them waits for one step at most, not for the whole load.

const N = 1000;
const raw = {
  accounts: Array.from({ length: N }, (_, i) => ({ uid: String(1000 + i), name: `sub ${i}` })),
  spot: Array.from({ length: N }, (_, i) => ({ uid: String(1000 + i), available: { USDT: '10.5', BTC: '0.001' } })),
  margin: [],
  futures: [],
  cross: [],
  tickers: [{ currency_pair: 'BTC_USDT', last: '60000' }],
  requests: 15,
  unread: [],
};

function read(store: BalanceStore) {
  const steps = readLastLoad(store, Date.now(), () => {});
  let yields = 0;
  for (;;) {
    const r = steps.next();
    if (r.done) return { yields, value: r.value };
    yields++;
  }
}

describe('the kept load read back', () => {
  it(`yields at least every ${RECORDS_PER_STEP} records, and reads every record`, () => {
    const store = new BalanceStore(null);
    saveLastLoad(store, Date.now() - 60_000, raw as never);
    const { yields, value } = read(store);
    expect(value?.raw.accounts).toHaveLength(N);
    expect(value?.raw.spot[N - 1]).toEqual(raw.spot[N - 1]);
    // Two lists of N records, one step per RECORDS_PER_STEP of them, and one per part.
    expect(yields).toBeGreaterThanOrEqual((2 * N) / RECORDS_PER_STEP);
    store.close();
  });

  it('refuses the whole copy for one record that does not parse, naming it', () => {
    const store = new BalanceStore(null);
    const lines: string[] = [];
    const spot = raw.spot.map((s, i) => (i === 555 ? { ...s, available: { USDT: '1e9' } } : s));
    saveLastLoad(store, Date.now() - 60_000, { ...raw, spot } as never);
    const steps = readLastLoad(store, Date.now(), (l) => lines.push(l));
    let r = steps.next();
    while (!r.done) r = steps.next();
    expect(r.value).toBeNull();
    expect(lines[0]).toMatch(/^\[balances\] the cached sub-account balances were refused \(spot\.555\.available\.USDT: /);
    store.close();
  });

  it(`sums each sub-account's accounts ${RECORDS_PER_STEP} sub-accounts a step, to the same entries as at once`, () => {
    const steps = entriesInSteps(raw as never, RECORDS_PER_STEP);
    let yields = 0;
    let r = steps.next();
    while (!r.done) {
      yields++;
      r = steps.next();
    }
    expect(yields).toBeGreaterThanOrEqual(N / RECORDS_PER_STEP - 1);
    expect(r.value).toEqual(entriesOf(raw as never));
  });

  it(`values the exchange's load ${RECORDS_PER_STEP} sub-accounts a step, to the same rows as at once`, () => {
    const steps = valuedInSteps(raw as never, 'USDT', RECORDS_PER_STEP);
    let yields = 0;
    let r = steps.next();
    while (!r.done) {
      yields++;
      r = steps.next();
    }
    // Summed, then valued: a step per RECORDS_PER_STEP sub-accounts of each.
    expect(yields).toBeGreaterThanOrEqual((2 * N) / RECORDS_PER_STEP - 2);
    const prices = new Prices(raw.tickers);
    expect(r.value.rows).toEqual(entriesOf(raw as never).map((e) => rowOf(e, prices, 'USDT', 0)));
    expect(r.value.rows[0]!.total).toBe('70.5');
  });
});
