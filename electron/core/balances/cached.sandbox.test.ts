import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { AlertView } from '../../../shared/balances.ts';
import { channels } from '../../../shared/ipc.ts';
import { dec } from '../../../shared/money.ts';
import { ApiClient } from '../client/client.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { entriesInSteps } from './matrix.ts';
import { BalancesService } from './service.ts';
import { BalanceStore } from './store.ts';
import { Prices } from './valuation.ts';

// A desk that starts again shows the sub-accounts' last known figures at once, from the profile's
// balances file, marked as cached, before anything is asked of the exchange; then the exchange's. The
// file can be edited by whoever can write the data folder: a copy that does not read back is refused
// with a log line. Cached figures neither raise nor clear an alert. A new process reads its kept load back
// while the window loads (warmUp): the opening view at once, the sub-accounts' sums only once the desk's
// start-up ran, so that their steps leave the window's load alone.

vi.mock('./matrix.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./matrix.ts')>();
  return { ...real, entriesInSteps: vi.fn(real.entriesInSteps) };
});

const sb = useSandbox('td-cached-balances', { limits: false });
/** Requests that reached the Sandbox through the desk's client. */
let sent = 0;
let client: ApiClient;
let file = '';
const logs: string[] = [];
const raised: AlertView[] = [];
const open: BalancesService[] = [];

beforeAll(async () => {
  const counting = ((input: string | URL | Request, init?: RequestInit) => {
    sent++;
    return fetch(input, init);
  }) as typeof fetch;
  client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, fetch: counting, limitsOff: true });
  await client.syncClock();
  file = join(sb.dir, 'balances', 'sandbox.sqlite');
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

/** The desk's balances as a start opens them: a new service on the profile's file. */
function start(firstPaint?: () => Promise<void>, startedUp?: () => Promise<void>): BalancesService {
  const s = new BalancesService({
    client: () => client,
    store: new BalanceStore(file),
    events: { progress: () => {}, alert: (a) => raised.push(a) },
    log: (line) => logs.push(line),
    firstPaint,
    startedUp,
  });
  open.push(s);
  return s;
}
const stop = (s: BalancesService) => {
  open.splice(open.indexOf(s), 1);
  s.close();
};
const all = (s: BalancesService) =>
  s.matrix({ quote: 'USDT', search: '', sort: 'uid', desc: false, hide_below: null, offset: 0, limit: 1000 });
const toSub = (uid: string, amount: string) =>
  client.request(
    {
      method: 'POST',
      path: '/wallet/sub_account_transfers',
      body: { sub_account: uid, currency: 'USDT', amount, direction: 'to' },
      priority: 'action',
    },
    z.unknown(),
  );
const edit = (sql: string, ...args: unknown[]) => {
  const db = new Database(file);
  try {
    db.prepare(sql).run(...args);
  } finally {
    db.close();
  }
};

describe('the sub-accounts after a restart', () => {
  it('answers the matrix from the cache before any request, marked as cached, then with the exchange', async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const first = start();
    const loaded = await first.refresh();
    expect(loaded.source).toBe('exchange');
    const before = all(first);
    expect(before.total_rows).toBeGreaterThan(0);
    stop(first);
    // Money moves while the desk is closed: the cache holds the figures from before.
    await toSub(uid, '200');

    sent = 0;
    const again = start();
    const cached = all(again);
    expect(sent).toBe(0);
    expect(cached.status).toMatchObject({ state: 'ready', source: 'cache', fetched_at: loaded.fetched_at, error: null });
    expect(cached.rows).toEqual(before.rows);
    expect(cached.grand_total).toBe(before.grand_total);
    expect(again.detail(uid, 'USDT')).toMatchObject({ source: 'cache', fetched_at: loaded.fetched_at });
    const q = { quote: 'USDT', search: '', sort: 'uid', desc: false, hide_below: null, offset: 0, limit: 1000 } as const;
    expect(again.exportCsv(q).filename).toMatch(/^sub-account-balances-last-known-USDT-/);

    // The ask started a load from the exchange; once it ends the figures are the exchange's.
    const fresh = await again.refresh();
    expect(sent).toBeGreaterThan(0);
    expect(fresh).toMatchObject({ state: 'ready', source: 'exchange', error: null });
    expect(fresh.fetched_at).toBeGreaterThanOrEqual(loaded.fetched_at!);
    const spot = (s: BalancesService) => s.detail(uid, 'USDT').spot?.available.USDT ?? '0';
    const beforeRow = before.rows.find((r) => r.uid === uid)!;
    expect(
      dec(all(again).rows.find((r) => r.uid === uid)!.cells.spot.value)
        .minus(beforeRow.cells.spot.value)
        .toFixed(),
    ).toBe('200');
    expect(again.detail(uid, 'USDT')).toMatchObject({ source: 'exchange' });
    expect(again.exportCsv(q).filename).toMatch(/^sub-account-balances-USDT-/);
    const freshSpot = spot(again);
    stop(again);

    // That load is the next start's cache.
    const third = start();
    expect(all(third).status).toMatchObject({ source: 'cache', fetched_at: fresh.fetched_at });
    expect(spot(third)).toBe(freshSpot);
  });

  it("starts the exchange's load of kept figures once the window painted them, not while it draws", async () => {
    await start().refresh();
    for (const s of open.splice(0)) s.close();
    let painted = () => {};
    const paint = new Promise<void>((r) => (painted = r));
    sent = 0;
    const again = start(() => paint);
    expect(all(again).status).toMatchObject({ source: 'cache' });
    // The window polls while the figures are the kept ones: no ask starts the load before the paint.
    await new Promise((r) => setTimeout(r, 200));
    expect(all(again).status).toMatchObject({ source: 'cache' });
    expect(sent).toBe(0);
    painted();
    await vi.waitFor(() => expect(all(again).status).toMatchObject({ source: 'exchange', error: null }), { timeout: 20_000 });
    expect(sent).toBeGreaterThan(0);
  });

  it('refuses a cache edited into something that is not a balance, says so in the log, and waits for the exchange', async () => {
    await start().refresh();
    for (const s of open.splice(0)) s.close();
    const row = new Database(file).prepare('SELECT load FROM balance_last_load').get() as { load: string };
    const load = JSON.parse(row.load) as { spot: Array<{ available: Record<string, string> }> };
    load.spot[0]!.available.USDT = '1e9';
    edit('UPDATE balance_last_load SET load = ?', JSON.stringify(load));

    logs.length = 0;
    sent = 0;
    const s = start();
    const page = all(s);
    expect(page.status.source).toBeNull();
    expect(page.status.fetched_at).toBeNull();
    expect(page.rows).toEqual([]);
    expect(logs).toEqual([expect.stringMatching(/cached sub-account balances were refused \(spot\.0\.available\.USDT: must be a decimal/)]);
    // The page's ask went to the exchange as on a first start.
    expect(await s.refresh()).toMatchObject({ source: 'exchange', state: 'ready' });
    expect(sent).toBeGreaterThan(0);
    stop(s);

    for (const [sql, why] of [
      ["UPDATE balance_last_load SET load = 'not json'", /it is not JSON/],
      ['UPDATE balance_last_load SET fetched_at = fetched_at + 86400000', /its time is in the future/],
      ["UPDATE balance_last_load SET load = json_set(load, '$.extra', 1)", /Unrecognized key/],
    ] as const) {
      edit(sql);
      logs.length = 0;
      const t = start();
      expect(all(t).status.source).toBeNull();
      expect(logs).toEqual([expect.stringMatching(why)]);
      await t.refresh();
      stop(t);
    }
  });

  it('answers the first ask of a restart from the view kept with the load, valuing nothing until a page needs more', async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const first = start();
    await first.refresh();
    const before = all(first);
    const inBtc = first.matrix({ quote: 'BTC', search: '', sort: 'uid', desc: false, hide_below: null, offset: 0, limit: 1000 });
    stop(first);

    // 650 ms of decimal arithmetic at 1,000 sub-accounts in a process just started (docs/performance.md §Opening the desk).
    const priced = vi.spyOn(Prices.prototype, 'price');
    try {
      const again = start();
      const cached = all(again);
      expect(priced).not.toHaveBeenCalled();
      expect(cached.status.source).toBe('cache');
      expect(cached.rows).toEqual(before.rows);
      expect([cached.column_totals, cached.grand_total]).toEqual([before.column_totals, before.grand_total]);
      // Another quote, or a sub-account's page, reads the load itself, summed and valued.
      const other = again.matrix({ quote: 'BTC', search: '', sort: 'uid', desc: false, hide_below: null, offset: 0, limit: 1000 });
      expect(priced).toHaveBeenCalled();
      expect(other.rows).toEqual(inBtc.rows);
      expect(again.detail(uid, 'USDT')).toMatchObject({ source: 'cache', row: before.rows.find((r) => r.uid === uid) });
    } finally {
      priced.mockRestore();
    }
  });

  it("answers within the channel's contract from the exchange, the kept view and the kept load (the core sends them unparsed)", async () => {
    const contract = channels.balancesMatrix.response;
    const some = sb.creds.sub_accounts[0]!.uid.slice(0, 3);
    const views = [
      { quote: 'USDT', search: '', sort: 'uid', desc: false, hide_below: null, offset: 0, limit: 100 },
      { quote: 'BTC', search: some, sort: 'total', desc: true, hide_below: null, offset: 0, limit: 100 },
      { quote: 'USDT', search: '', sort: 'cross_risk', desc: false, hide_below: null, offset: 1, limit: 2 },
    ] as const;
    const first = start();
    await first.refresh();
    // Parsed, an answer loses nothing and gains nothing: the core sends exactly what the contract says.
    const sent = (page: unknown) => expect(contract.parse(page)).toStrictEqual(page);
    for (const v of views) sent(first.matrix(v));
    stop(first);
    const again = start();
    for (const v of views) {
      const page = again.matrix(v);
      expect(page.status.source).toBe('cache');
      expect(page.rows.length).toBeGreaterThan(0);
      sent(page);
    }
  });

  it('refuses the load with its kept view when the view does not fit the load, naming what', async () => {
    await start().refresh();
    for (const s of open.splice(0)) s.close();
    const kept = (new Database(file).prepare('SELECT view FROM balance_last_view').get() as { view: string }).view;
    const view = JSON.parse(kept) as { rows: Array<{ uid: string; total: string }>; version: number };
    const [a, b] = view.rows;
    for (const [edited, why] of [
      [{ ...view, rows: [{ ...a, total: '1e9' }, ...view.rows.slice(1)] }, /\(opening\.rows\.0\.total: must be a decimal number string\)/],
      [{ ...view, rows: [b, a, ...view.rows.slice(2)] }, /\(opening\.rows\.0\.uid: \d+ where the load has \d+\)/],
      [{ ...view, rows: view.rows.slice(1) }, /\(opening\.rows: \d+ rows for the load's \d+ sub-accounts\)/],
      [{ ...view, grand_total: 'lots' }, /\(opening\.grand_total: must be a decimal/],
    ] as const) {
      edit('UPDATE balance_last_view SET view = ?', JSON.stringify(edited));
      logs.length = 0;
      const t = start();
      const page = all(t);
      expect(page.status.source).toBeNull();
      expect(page.rows).toEqual([]);
      expect(logs).toEqual([expect.stringMatching(why)]);
      stop(t);
    }

    // A view another version of the desk kept is valued again, not refused.
    edit('UPDATE balance_last_view SET view = ?', JSON.stringify({ ...view, version: view.version + 1 }));
    logs.length = 0;
    const priced = vi.spyOn(Prices.prototype, 'price');
    try {
      const t = start();
      expect(all(t).rows).toEqual(view.rows);
      expect(priced).toHaveBeenCalled();
      expect(logs).toEqual([]);
      stop(t);
    } finally {
      priced.mockRestore();
    }
  });

  it('neither raises nor clears an alert from cached figures; the exchange load does', async () => {
    const [a, b] = sb.creds.sub_accounts.map((s) => s.uid) as [string, string];
    const first = start();
    await first.refresh();
    raised.length = 0;
    // A floor far above what sub-account a holds: the alert is raised from the exchange's figures.
    first.setFloor(a, 'USDT', '999999999');
    expect(raised.map((x) => [x.uid, x.kind])).toEqual([[a, 'low_balance']]);
    stop(first);

    raised.length = 0;
    const again = start();
    expect(all(again).status.source).toBe('cache');
    // On the cached figures these would clear a's alert and raise b's: neither happens until the exchange answers.
    again.setFloor(a, 'USDT', null);
    again.setFloor(b, 'USDT', '999999999');
    again.saveSettings({ ...again.settings(), default_risk_threshold: '99999' });
    expect(raised).toEqual([]);
    expect(again.alerts().map((x) => [x.uid, x.kind, x.cleared_at])).toEqual([[a, 'low_balance', null]]);
    expect(all(again).rows.find((r) => r.uid === a)!.alerts).toBe(1);

    await again.refresh();
    expect(raised.some((x) => x.uid === b && x.kind === 'low_balance')).toBe(true);
    expect(raised.some((x) => x.kind === 'cross_risk')).toBe(true);
    expect(again.alerts().find((x) => x.uid === a && x.kind === 'low_balance')!.cleared_at).not.toBeNull();
  });
});

describe('the kept load read back at a start', () => {
  const never = () => new Promise<void>(() => {});
  const page = (s: BalancesService) =>
    s.matrix({ quote: 'USDT', search: '', sort: 'uid', desc: false, hide_below: null, offset: 0, limit: 10 });
  const turns = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

  it('makes the opening view, then waits for the start-up before summing the sub-accounts', async () => {
    await start().refresh();
    for (const s of open.splice(0)) s.close();
    const summed = vi.mocked(entriesInSteps);
    summed.mockClear();

    let ran = () => {};
    const startUp = new Promise<void>((r) => (ran = r));
    // The window has not painted: no ask starts the exchange's load.
    const again = start(never, () => startUp);
    again.warmUp();
    await turns(300);
    expect(page(again).status.source).toBe('cache');
    expect(page(again).rows).toHaveLength(10);
    expect(summed).not.toHaveBeenCalled();

    ran();
    await vi.waitFor(() => expect(summed).toHaveBeenCalledTimes(1));
  });

  it('sums them at once for a page that needs them before the start-up', async () => {
    await start().refresh();
    for (const s of open.splice(0)) s.close();
    const uid = sb.creds.sub_accounts[0]!.uid;
    const again = start(never, never);
    again.warmUp();
    await turns(300);
    expect(again.detail(uid, 'USDT')).toMatchObject({ source: 'cache', row: { uid } });
  });
});
