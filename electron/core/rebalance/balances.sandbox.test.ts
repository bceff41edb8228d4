import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { dec } from '../../../shared/money.ts';
import { readBalances } from './balances.ts';
import type { AccountRef } from './route.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// The balances a plan starts from and a resume checks, for every kind a batch may touch, read from a
// Sandbox after moves whose amounts the test knows.

let client: ApiClient;

const sb = useSandbox('rebalance-balances');
beforeAll(async () => {
  client = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main });
}, 60_000);

describe('readBalances', () => {
  it('reads spot and futures accounts of the main account and of sub-accounts, one or many', async () => {
    const uids: string[] = [];
    for (const [i, a] of ['50', '12.25'].entries()) {
      const { uid } = await adminCall<{ uid: string }>(sb.creds, 'POST', `/accounts/${sb.creds.main.uid}/sub_accounts`, {
        name: `read_${i}`,
      });
      await adminCall(sb.creds, 'POST', '/deposits', { uid, currency: 'USDT', amount: a });
      uids.push(uid);
    }
    const main: AccountRef[] = [
      { owner: 'main', kind: 'spot' },
      { owner: 'main', kind: 'futures' },
    ];
    const before = await readBalances(client, main, 'USDT');
    await client.request(
      {
        method: 'POST',
        path: '/wallet/sub_account_transfers',
        body: {
          sub_account: uids[0],
          sub_account_type: 'futures',
          currency: 'USDT',
          amount: '7.5',
          direction: 'to',
          client_order_id: `t-${Date.now()}`,
        },
      },
      z.any(),
    );
    await client.request(
      { method: 'POST', path: '/wallet/transfers', body: { currency: 'USDT', from: 'spot', to: 'futures', amount: '3', settle: 'usdt' } },
      z.any(),
    );

    const accounts: AccountRef[] = [
      ...main,
      ...uids.flatMap((owner) => [
        { owner, kind: 'spot' as const },
        { owner, kind: 'futures' as const },
      ]),
    ];
    const after = await readBalances(client, accounts, 'USDT');
    const moved = (k: string) =>
      dec(after.get(k)!)
        .minus(dec(before.get(k)!))
        .toFixed();
    expect([moved('main:spot'), moved('main:futures')]).toEqual(['-10.5', '3']);
    expect([
      after.get(`${uids[0]}:spot`),
      after.get(`${uids[0]}:futures`),
      after.get(`${uids[1]}:spot`),
      after.get(`${uids[1]}:futures`),
    ]).toEqual(['50', '7.5', '12.25', '0']);
    // One sub-account alone is read by its uid, and gives the same figure.
    expect(
      await readBalances(
        client,
        [
          { owner: uids[0]!, kind: 'futures' },
          { owner: uids[1]!, kind: 'spot' },
        ],
        'USDT',
      ),
    ).toEqual(
      new Map([
        [`${uids[0]}:futures`, '7.5'],
        [`${uids[1]}:spot`, '12.25'],
      ]),
    );
  });

  it('refuses, naming the account, what it cannot read', async () => {
    await expect(readBalances(client, [{ owner: 'main', kind: 'delivery' }], 'USDT')).rejects.toThrow(
      /main:delivery: the desk reads no delivery balance yet/,
    );
    await expect(readBalances(client, [{ owner: 'main', kind: 'futures' }], 'ETH')).rejects.toThrow(
      /ETH is no futures settlement currency/,
    );
  });
});
