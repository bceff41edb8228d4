import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dec } from '../../../shared/money.ts';
import { ApiClient } from '../client/client.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { BalancesService } from './service.ts';
import { BalanceStore } from './store.ts';

// After a transfer moved a sub-account's money, the figures of the last load are stale: a transfer form
// showed a sub-account's balance 200 USDT off. The service reads the sub-accounts again, and a load that
// was already under way (it may have read before the move) is followed by one more.

let client: ApiClient;
let service: BalancesService;
/** How many loads have ended. */
let loadsDone = 0;
/** While set, a load waits before its first read (the sub-account list): it is under way, and stays so. */
let hold: Promise<void> | undefined;

const sb = useSandbox('td-money-moved', { limits: false });
beforeAll(async () => {
  client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true });
  await client.syncClock();
  const requestList = client.requestList.bind(client);
  client.requestList = ((req, schema) =>
    hold && req.path === '/sub_accounts' ? hold.then(() => requestList(req, schema)) : requestList(req, schema)) as typeof requestList;
  service = new BalancesService({
    client: () => client,
    store: new BalanceStore(null),
    events: { progress: (p) => void (p.done && p.scope === 'sub_accounts' && loadsDone++), alert: () => {} },
  });
});
afterAll(() => service?.close());

const spotUsdt = (uid: string) => service.detail(uid, 'USDT').spot?.available.USDT ?? '0';
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
const loadsEnd = async (n: number) => {
  const until = loadsDone + n;
  await expect.poll(() => loadsDone, { timeout: 30_000 }).toBe(until);
};

describe('balances after money moved', () => {
  it('reads the sub-accounts again, so that their figures follow the move', async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    await service.refresh();
    const before = spotUsdt(uid);
    await toSub(uid, '200');
    // The last load still holds the figure from before the move.
    expect(spotUsdt(uid)).toBe(before);
    const ended = loadsEnd(1);
    service.moneyMoved();
    await ended;
    expect(spotUsdt(uid)).toBe(dec(before).plus(200).toFixed());
  });

  it('follows a load already under way with one more, which reads after the move', async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const before = spotUsdt(uid);
    const ended = loadsEnd(2);
    // Without the hold, a fast load could end before the move is told, and the test would not be about a
    // load under way (a busy machine made it one load more than counted).
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    const running = service.refresh();
    await toSub(uid, '5');
    service.moneyMoved();
    service.moneyMoved();
    hold = undefined;
    release();
    await running;
    await ended;
    expect(spotUsdt(uid)).toBe(dec(before).plus(5).toFixed());
  });
});
