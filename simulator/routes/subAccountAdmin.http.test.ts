import { describe, expect, test } from 'vitest';
import { failure, spotAvailable, useClient, type Client } from '../testkit/client.ts';

// Contract tests of §4.4 sub-account management over HTTP against a demo-world Sandbox: sub-accounts and
// their locks. The field names are the live SubAccount model's (simulator/README.md).

const c = useClient();

interface SubAccount {
  remark: string;
  login_name: string;
  user_id: number;
  state: number;
  type: number;
  create_time: number;
}

async function subSpot(cl: Client, uid: string, currency: string): Promise<string> {
  const r = await cl.get('/wallet/sub_account_balances', { sub_uid: uid });
  expect(r.status).toBe(200);
  return ((r.json as { available: Record<string, string> }[])[0]?.available[currency] ?? '0') as string;
}

async function subAccounts(): Promise<SubAccount[]> {
  return (await c.get('/sub_accounts')).json as SubAccount[];
}

describe('POST /sub_accounts', () => {
  test('creates an empty sub-account that list and get show, with its remark', async () => {
    const before = (await subAccounts()).length;
    const t0 = Math.floor(c.s.clock.now());
    const r = await c.post('/sub_accounts', { login_name: 'incident_desk', remark: 'made by the test', email: 'ops@example.com' });
    expect(r.status).toBe(201);
    const made = r.json as SubAccount;
    expect(made).toMatchObject({ login_name: 'incident_desk', remark: 'made by the test', state: 1, type: 1 });
    expect(made.create_time).toBeGreaterThanOrEqual(t0);
    expect(made.create_time).toBeLessThanOrEqual(c.s.clock.now());
    const list = await subAccounts();
    expect(list.length).toBe(before + 1);
    expect(list.find((a) => a.user_id === made.user_id)).toEqual(made);
    expect((await c.get(`/sub_accounts/${made.user_id}`)).json).toEqual(made);
    expect(await subSpot(c, String(made.user_id), 'USDT')).toBe('0');
  });

  test('a taken or malformed login_name, a bad type or email is refused and creates nothing', async () => {
    expect((await c.post('/sub_accounts', { login_name: 'taken_once' })).status).toBe(201);
    const before = (await subAccounts()).length;
    const cases: [Record<string, unknown>, string, number?][] = [
      [{ login_name: 'taken_once' }, 'INVALID_PARAM_VALUE'],
      [{ login_name: 'market_making_1' }, 'INVALID_PARAM_VALUE'],
      [{ login_name: '' }, 'MISSING_REQUIRED_PARAM'],
      [{ remark: 'no name' }, 'MISSING_REQUIRED_PARAM'],
      [{ login_name: 'has space' }, 'INVALID_PARAM_VALUE'],
      [{ login_name: 'dash-ed' }, 'INVALID_PARAM_VALUE'],
      [{ login_name: 'x'.repeat(33) }, 'INVALID_PARAM_VALUE'],
      [{ login_name: 42 }, 'INVALID_PARAM_VALUE'],
      [{ login_name: 'cross_one', type: 3 }, 'INVALID_PARAM_VALUE'],
      [{ login_name: 'mail_one', email: 'not-an-email' }, 'INVALID_PARAM_VALUE'],
      [{ login_name: 'pw_one', password: 'short' }, 'INVALID_PARAM_VALUE'],
    ];
    for (const [body, label] of cases)
      expect({ body, ...failure(await c.post('/sub_accounts', body)) }).toEqual({ body, status: 400, label });
    expect((await subAccounts()).length).toBe(before);
  });

  test("a sub-account's key cannot manage sub-accounts", async () => {
    expect(failure(await c.post('/sub_accounts', { login_name: 'from_sub' }, c.subs[0]))).toEqual({ status: 401, label: 'FORBIDDEN' });
    expect(failure(await c.get(`/sub_accounts/${c.subs[0]!.uid}`, {}, c.subs[0]))).toEqual({ status: 401, label: 'FORBIDDEN' });
  });
});

describe('GET /sub_accounts/{user_id}', () => {
  test('an unknown user_id, a main account and a malformed id are SUB_ACCOUNT_NOT_FOUND', async () => {
    for (const id of ['99999999', c.main.uid, 'abc'])
      expect({ id, ...failure(await c.get(`/sub_accounts/${id}`)) }).toEqual({ id, status: 404, label: 'SUB_ACCOUNT_NOT_FOUND' });
  });

  test("another main account's sub-account is not found", async () => {
    const other = (await c.admin('POST', '/accounts', { world: 'demo' })).json as { sub_accounts: { uid: string }[] };
    const theirs = other.sub_accounts[0]!.uid;
    expect(failure(await c.get(`/sub_accounts/${theirs}`))).toEqual({ status: 404, label: 'SUB_ACCOUNT_NOT_FOUND' });
    expect(failure(await c.post(`/sub_accounts/${theirs}/lock`, undefined))).toEqual({ status: 404, label: 'SUB_ACCOUNT_NOT_FOUND' });
  });
});

describe('POST /sub_accounts/{user_id}/lock and /unlock', () => {
  test("lock refuses the sub-account's key and its transfers; unlock restores both", async () => {
    const sub = c.subs[1]!;
    const usdt0 = await subSpot(c, sub.uid, 'USDT');
    expect((await c.get('/spot/accounts', {}, sub)).status).toBe(200);

    const locked = await c.post(`/sub_accounts/${sub.uid}/lock`, undefined);
    expect(locked.status).toBe(204);
    expect(locked.text).toBe('');
    expect(((await c.get(`/sub_accounts/${sub.uid}`)).json as SubAccount).state).toBe(2);
    expect((await subAccounts()).find((a) => String(a.user_id) === sub.uid)!.state).toBe(2);

    // Its own key, at once (no cache keeps it alive).
    expect(failure(await c.get('/spot/accounts', {}, sub))).toEqual({ status: 401, label: 'ACCOUNT_LOCKED' });
    // Main <-> sub, both ways, and sub <-> sub, both ways: refused, nothing moves.
    const mainUsdt = await spotAvailable(c, 'USDT');
    for (const direction of ['to', 'from'])
      expect(
        failure(await c.post('/wallet/sub_account_transfers', { sub_account: sub.uid, currency: 'USDT', amount: '1', direction })),
      ).toEqual({ status: 400, label: 'SUB_ACCOUNT_LOCKED' });
    const other = c.subs[2]!.uid;
    const leg = { currency: 'USDT', sub_account_from_type: 'spot', sub_account_to_type: 'spot', amount: '1' };
    for (const [from, to] of [
      [sub.uid, other],
      [other, sub.uid],
    ])
      expect(failure(await c.post('/wallet/sub_account_to_sub_account', { ...leg, sub_account_from: from, sub_account_to: to }))).toEqual({
        status: 400,
        label: 'SUB_ACCOUNT_LOCKED',
      });
    expect(await subSpot(c, sub.uid, 'USDT')).toBe(usdt0);
    expect(await spotAvailable(c, 'USDT')).toBe(mainUsdt);

    // Idempotent: a second lock is a success that changes nothing.
    expect((await c.post(`/sub_accounts/${sub.uid}/lock`, undefined)).status).toBe(204);

    expect((await c.post(`/sub_accounts/${sub.uid}/unlock`, undefined)).status).toBe(204);
    expect((await c.post(`/sub_accounts/${sub.uid}/unlock`, undefined)).status).toBe(204);
    expect(((await c.get(`/sub_accounts/${sub.uid}`)).json as SubAccount).state).toBe(1);
    expect((await c.get('/spot/accounts', {}, sub)).status).toBe(200);
    const back = await c.post('/wallet/sub_account_transfers', { sub_account: sub.uid, currency: 'USDT', amount: '1', direction: 'to' });
    expect(back.status).toBe(200);
  });

  test('the lock survives a restart of the key cache: it is stored', async () => {
    const sub = c.subs[0]!;
    expect((await c.post(`/sub_accounts/${sub.uid}/lock`, undefined)).status).toBe(204);
    c.s.keys.invalidate();
    expect((c.s.db.prepare('SELECT locked FROM accounts WHERE uid = ?').get(sub.uid) as { locked: number }).locked).toBe(1);
    expect(failure(await c.get('/spot/accounts', {}, sub))).toEqual({ status: 401, label: 'ACCOUNT_LOCKED' });
    expect((await c.post(`/sub_accounts/${sub.uid}/unlock`, undefined)).status).toBe(204);
  });

  test('only the main account locks, and only its own sub-accounts', async () => {
    const sub = c.subs[2]!;
    expect(failure(await c.post(`/sub_accounts/${sub.uid}/lock`, undefined, sub))).toEqual({ status: 401, label: 'FORBIDDEN' });
    expect(failure(await c.post(`/sub_accounts/${c.main.uid}/lock`, undefined))).toEqual({ status: 404, label: 'SUB_ACCOUNT_NOT_FOUND' });
    expect(failure(await c.post('/sub_accounts/424242/unlock', undefined))).toEqual({ status: 404, label: 'SUB_ACCOUNT_NOT_FOUND' });
    expect((await c.get('/spot/accounts', {}, sub)).status).toBe(200);
  });
});
