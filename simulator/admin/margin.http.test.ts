import { describe, expect, it } from 'vitest';
import { admin, signed } from '../testkit/http.ts';
import { useTestSandbox } from '../testkit/sandbox.ts';

// PUT /admin/v1/accounts/{uid}/cross_margin: what a test uses to move a sub-account's §2.8 cross margin risk.

const s = useTestSandbox({ noLimits: true });

const crossOf = async (uid: string) =>
  (
    await signed(s.baseUrl, s.credentials.main, {
      method: 'GET',
      path: '/wallet/sub_account_cross_margin_balances',
      query: `sub_uid=${uid}`,
    })
  ).json[0].available;

describe('admin: a cross margin balance', () => {
  it("sets one currency and the account's risk follows (total / borrowed)", async () => {
    const uid = s.credentials.sub_accounts[1]!.uid;
    expect((await admin(s, 'PUT', `/accounts/${uid}/cross_margin`, { currency: 'usdt', available: '1500', borrowed: '1000' })).status).toBe(
      200,
    );
    expect((await admin(s, 'PUT', `/accounts/${uid}/cross_margin`, { currency: 'BTC', available: '0' })).status).toBe(200);
    const a = await crossOf(uid);
    expect([a.balances.USDT, a.risk, a.user_id]).toEqual([
      { available: '1500', freeze: '0', borrowed: '1000', interest: '0' },
      '1.5',
      Number(uid),
    ]);
  });

  it('refuses bad input by name and changes nothing', async () => {
    const uid = s.credentials.sub_accounts[2]!.uid;
    const before = await crossOf(uid);
    for (const [body, label] of [
      [{ currency: 'USDT', available: '-1' }, 'INVALID_PARAM_VALUE'],
      [{ currency: 'USDT', borrowed: '1e5' }, 'INVALID_PARAM_VALUE'],
      [{ currency: 'USDT', available: 5 }, 'INVALID_PARAM_VALUE'],
      [{ currency: 'NOPE', available: '1' }, 'INVALID_CURRENCY'],
      [{ available: '1' }, 'MISSING_REQUIRED_PARAM'],
    ] as const) {
      const r = await admin(s, 'PUT', `/accounts/${uid}/cross_margin`, body);
      expect([r.status, r.json.label], JSON.stringify(body)).toEqual([400, label]);
      expect(r.json.message).toMatch(/available|borrowed|currency/);
    }
    expect((await admin(s, 'PUT', '/accounts/99999999/cross_margin', { currency: 'USDT', available: '1' })).json.label).toBe(
      'USER_NOT_FOUND',
    );
    expect(await crossOf(uid)).toEqual(before);
  });
});
