import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { entriesInSteps } from './matrix.ts';
import { BalancesService } from './service.ts';
import { BalanceStore } from './store.ts';

// A new process reads its kept load back while the window loads (warmUp): the opening view at once, the
// sub-accounts' sums only once the desk's start-up ran, so that their steps leave the window's load alone.

vi.mock('./matrix.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./matrix.ts')>();
  return { ...real, entriesInSteps: vi.fn(real.entriesInSteps) };
});

const sb = useSandbox('td-balances-warm-up', { limits: false });
let client: ApiClient;
let file = '';
const open: BalancesService[] = [];

beforeAll(async () => {
  client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true });
  await client.syncClock();
  file = join(sb.dir, 'balances', 'sandbox.sqlite');
  // A load kept by an earlier run.
  const first = start();
  await first.refresh();
  open.splice(0).forEach((s) => s.close());
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

function start(startedUp?: () => Promise<void>): BalancesService {
  const s = new BalancesService({
    client: () => client,
    store: new BalanceStore(file),
    events: { progress: () => {}, alert: () => {} },
    // The window has not painted: no ask starts the exchange's load.
    firstPaint: () => new Promise<void>(() => {}),
    startedUp,
  });
  open.push(s);
  return s;
}
const page = (s: BalancesService) =>
  s.matrix({ quote: 'USDT', search: '', sort: 'uid', desc: false, hide_below: null, offset: 0, limit: 10 });
const turns = (n: number) => new Promise<void>((r) => setTimeout(r, n));

describe('the kept load read back at a start', () => {
  it('makes the opening view, then waits for the start-up before summing the sub-accounts', async () => {
    const summed = vi.mocked(entriesInSteps);
    summed.mockClear();

    let ran = () => {};
    const startUp = new Promise<void>((r) => (ran = r));
    const again = start(() => startUp);
    again.warmUp();
    await turns(300);
    expect(page(again).status.source).toBe('cache');
    expect(page(again).rows).toHaveLength(10);
    expect(summed).not.toHaveBeenCalled();

    ran();
    await vi.waitFor(() => expect(summed).toHaveBeenCalledTimes(1));
  });

  it('sums them at once for a page that needs them before the start-up', async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const again = start(() => new Promise<void>(() => {}));
    again.warmUp();
    await turns(300);
    expect(again.detail(uid, 'USDT')).toMatchObject({ source: 'cache', row: { uid } });
  });
});
