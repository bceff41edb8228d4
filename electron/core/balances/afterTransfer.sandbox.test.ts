import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubAccountDetail } from '../../../shared/balances.ts';
import { dec } from '../../../shared/money.ts';
import { sendGoverned } from '../approvals/testkit/governed.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { sandboxCore } from '../testkit/sandboxCore.ts';

// A transfer form showed a sub-account's balance 200 USDT stale after a transfer: the sub-accounts'
// figures came from the load before it. Through the core, as the window reads them: once a main → sub
// transfer has reached the exchange, the sub-account's balance is the exchange's new one.

let core: Core & ConfirmCore;
const sb = useSandbox('td-after-transfer', { limits: false });
beforeAll(async () => {
  core = sandboxCore(sb);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

async function spotUsdt(uid: string): Promise<{ usdt: string; fetched_at: number | null }> {
  const r = await core.invoke('balancesSubAccount', { uid, quote: 'USDT' });
  if (!r.ok) throw new Error(r.error.message);
  const d = r.data as SubAccountDetail;
  return { usdt: d.spot?.available.USDT ?? '0', fetched_at: d.fetched_at };
}

describe('a sub-account balance after a transfer', () => {
  it('is read again once the transfer has moved the money', async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    await expect.poll(async () => (await spotUsdt(uid)).fetched_at, { timeout: 30_000 }).not.toBeNull();
    const before = (await spotUsdt(uid)).usdt;
    const sent = await sendGoverned(core, {
      kind: 'main_sub_transfer',
      input: { sub_account: uid, currency: 'USDT', amount: '200', direction: 'to' },
    });
    expect(sent.state).toMatch(/^(accepted|done)$/);
    await expect.poll(async () => (await spotUsdt(uid)).usdt, { timeout: 30_000 }).toBe(dec(before).plus(200).toFixed());
  });
});
