import { describe, expect, test } from 'vitest';
import { failure, useClient, type Client, type Key } from '../testkit/client.ts';

// Contract tests of §4.4 sub-account keys over HTTP against a demo-world Sandbox: a key made here signs
// at once as its sub-account, through the same signature and permission checks as every key (§5), and
// each change to it holds from the next request on. Field names: the live SubAccountKey model.

const c = useClient();

interface SubKey {
  user_id: number;
  mode: number;
  name: string;
  perms: { name: string; read_only: boolean }[];
  ip_whitelist: string[];
  key: string;
  secret?: string;
  state: number;
  created_at: number;
  updated_at: number;
}

/** In the order the Sandbox lists permissions: spot, futures, delivery, wallet, unified. */
const FULL = [
  { name: 'spot', read_only: true },
  { name: 'wallet', read_only: false },
];

async function newKey(uid: string, body: Record<string, unknown> = { name: 'ops', perms: FULL }): Promise<SubKey & Key> {
  const r = await c.post(`/sub_accounts/${uid}/keys`, body);
  expect(r.status, r.text).toBe(200);
  const k = r.json as SubKey;
  return { ...k, uid, secret: k.secret! };
}

async function keysOf(uid: string): Promise<SubKey[]> {
  const r = await c.get(`/sub_accounts/${uid}/keys`);
  expect(r.status, r.text).toBe(200);
  return r.json as SubKey[];
}

/** Moves 1 USDT out of `from` (spot) to another sub-account, signed by `key`: the sub-account's own transfer. */
function moveOut(cl: Client, from: string, to: string, key: Key) {
  const body = { currency: 'USDT', sub_account_from: from, sub_account_from_type: 'spot', sub_account_to: to, sub_account_to_type: 'spot' };
  return cl.post('/wallet/sub_account_to_sub_account', { ...body, amount: '1' }, key);
}

async function fund(uid: string): Promise<void> {
  const r = await c.post('/wallet/sub_account_transfers', { sub_account: uid, currency: 'USDT', amount: '10', direction: 'to' });
  expect(r.status, r.text).toBe(200);
}

async function subUsdt(uid: string): Promise<string> {
  const r = await c.get('/wallet/sub_account_balances', { sub_uid: uid });
  return ((r.json as { available: Record<string, string> }[])[0]?.available.USDT ?? '0') as string;
}

describe('POST /sub_accounts/{user_id}/keys', () => {
  test('answers the new key with its secret once; list and get show it without the secret', async () => {
    const sub = c.subs[1]!.uid;
    const t0 = Math.floor(c.s.clock.now());
    const k = await newKey(sub, { name: 'desk', perms: FULL, ip_whitelist: ['127.0.0.1', '127.0.0.1'], mode: 1 });
    expect(k).toMatchObject({ user_id: Number(sub), mode: 1, name: 'desk', perms: FULL, ip_whitelist: ['127.0.0.1'], state: 1 });
    expect(k.key).toMatch(/^[0-9a-f]{32}$/);
    expect(k.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(k.created_at).toBeGreaterThanOrEqual(t0);
    expect(k.created_at).toBeLessThanOrEqual(c.s.clock.now());
    expect(k.updated_at).toBe(k.created_at);
    const listed = (await keysOf(sub)).find((x) => x.key === k.key)!;
    expect(listed).not.toHaveProperty('secret');
    const { secret: _secret, uid: _uid, ...shown } = k;
    expect(listed).toEqual(shown);
    expect((await c.get(`/sub_accounts/${sub}/keys/${k.key}`)).json).toEqual(shown);
  });

  test('the seeded key of a sub-account is listed with its permissions', async () => {
    const seeded = c.subs[0]!;
    const listed = (await keysOf(seeded.uid)).find((x) => x.key === seeded.key)!;
    expect(listed).toMatchObject({ state: 1, mode: 1, user_id: Number(seeded.uid) });
    expect(listed.perms.map((p) => p.name).sort()).toEqual(['delivery', 'futures', 'spot', 'unified', 'wallet']);
  });

  test("a created key signs the sub-account's own transfer at once, within the permissions given", async () => {
    const [from, to] = [c.subs[1]!.uid, c.subs[2]!.uid];
    const k = await newKey(from);
    await fund(from);
    const before = [await subUsdt(from), await subUsdt(to)];
    const r = await moveOut(c, from, to, k);
    expect(r.status, r.text).toBe(200);
    expect([await subUsdt(from), await subUsdt(to)]).not.toEqual(before);
    // spot read-only, futures not granted.
    const order = { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '1' };
    expect(failure(await c.post('/spot/orders', order, k))).toEqual({ status: 401, label: 'READ_ONLY' });
    expect(failure(await c.get('/futures/usdt/accounts', {}, k))).toEqual({ status: 401, label: 'FORBIDDEN' });
    expect((await c.get('/spot/accounts', {}, k)).status).toBe(200);
  });

  test('a key of a new sub-account funds and reads it: the desk flow', async () => {
    const made = (await c.post('/sub_accounts', { login_name: 'fresh_incident' })).json as { user_id: number };
    const uid = String(made.user_id);
    const k = await newKey(uid, { name: 'first', perms: [{ name: 'spot', read_only: true }] });
    expect(
      (await c.post('/wallet/sub_account_transfers', { sub_account: uid, currency: 'USDT', amount: '5', direction: 'to' })).status,
    ).toBe(200);
    const r = await c.get('/spot/accounts', { currency: 'USDT' }, k);
    expect(r.status).toBe(200);
    expect((r.json as { available: string }[])[0]!.available).toBe('5');
  });

  test('bad input is refused with a label and creates nothing', async () => {
    const sub = c.subs[2]!.uid;
    const count = (await keysOf(sub)).length;
    const ips21 = Array.from({ length: 21 }, (_, i) => `10.0.0.${i + 1}`);
    const cases: [Record<string, unknown>, string][] = [
      [{ perms: [{ name: 'withdraw' }] }, 'INVALID_PARAM_VALUE'],
      [{ perms: [{ name: 'moon' }] }, 'INVALID_PARAM_VALUE'],
      [{ perms: [{ name: 'options' }] }, 'INVALID_PARAM_VALUE'],
      [{ perms: [{ name: 'spot' }, { name: 'spot', read_only: true }] }, 'INVALID_PARAM_VALUE'],
      [{ perms: [{ name: 'spot', read_only: 'yes' }] }, 'INVALID_PARAM_VALUE'],
      [{ perms: 'spot' }, 'INVALID_PARAM_VALUE'],
      [{ perms: FULL, ip_whitelist: ips21 }, 'INVALID_PARAM_VALUE'],
      [{ perms: FULL, ip_whitelist: ['300.1.1.1'] }, 'INVALID_PARAM_VALUE'],
      [{ perms: FULL, ip_whitelist: ['10.0.0.0/8'] }, 'INVALID_PARAM_VALUE'],
      [{ perms: FULL, ip_whitelist: '127.0.0.1' }, 'INVALID_PARAM_VALUE'],
      [{ perms: FULL, name: '' }, 'INVALID_PARAM_VALUE'],
      [{ perms: FULL, name: '   ' }, 'INVALID_PARAM_VALUE'],
      [{ perms: FULL, mode: 3 }, 'INVALID_PARAM_VALUE'],
    ];
    for (const [body, label] of cases)
      expect({ body, ...failure(await c.post(`/sub_accounts/${sub}/keys`, body)) }).toEqual({ body, status: 400, label });
    expect((await keysOf(sub)).length).toBe(count);
  });

  test('unknown, foreign or main user_id: SUB_ACCOUNT_NOT_FOUND; sub-account keys cannot call it', async () => {
    const other = (await c.admin('POST', '/accounts', { world: 'demo' })).json as { sub_accounts: { uid: string }[] };
    for (const id of ['99999999', c.main.uid, other.sub_accounts[0]!.uid, 'x1']) {
      expect({ id, ...failure(await c.post(`/sub_accounts/${id}/keys`, { perms: FULL })) }).toEqual({
        id,
        status: 404,
        label: 'SUB_ACCOUNT_NOT_FOUND',
      });
      expect({ id, ...failure(await c.get(`/sub_accounts/${id}/keys`)) }).toEqual({ id, status: 404, label: 'SUB_ACCOUNT_NOT_FOUND' });
    }
    const sub = c.subs[0]!;
    expect(failure(await c.post(`/sub_accounts/${sub.uid}/keys`, { perms: FULL }, sub))).toEqual({ status: 401, label: 'FORBIDDEN' });
  });

  test('an account holds at most 20 keys (§5.2)', async () => {
    const uid = String(((await c.post('/sub_accounts', { login_name: 'many_keys' })).json as { user_id: number }).user_id);
    for (let i = 0; i < 20; i++) await newKey(uid, { name: `k${i}` });
    expect(failure(await c.post(`/sub_accounts/${uid}/keys`, { name: 'k20' }))).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
    expect((await keysOf(uid)).length).toBe(20);
  });
});

describe('PUT and DELETE /sub_accounts/{user_id}/keys/{key}', () => {
  test('an update holds from the next request: permissions, IP list, and state disables and enables', async () => {
    const [from, to] = [c.subs[1]!.uid, c.subs[2]!.uid];
    const k = await newKey(from);
    const put = (body: Record<string, unknown>) => c.put(`/sub_accounts/${from}/keys/${k.key}`, body);
    await fund(from);
    expect((await moveOut(c, from, to, k)).status).toBe(200);

    const r = await put({ name: 'ops', perms: [{ name: 'wallet', read_only: true }] });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(failure(await moveOut(c, from, to, k))).toEqual({ status: 401, label: 'READ_ONLY' });

    expect((await put({ perms: FULL, ip_whitelist: ['127.0.0.9'] })).status).toBe(204);
    expect(failure(await moveOut(c, from, to, k))).toEqual({ status: 401, label: 'IP_FORBIDDEN' });

    // Disabled by state, with the whole key sent back as the live update replaces perms and IPs.
    expect((await put({ perms: FULL, state: 3 })).status).toBe(204);
    const shown = (await c.get(`/sub_accounts/${from}/keys/${k.key}`)).json as SubKey;
    expect(shown).toMatchObject({ state: 3, name: 'ops', perms: FULL, ip_whitelist: [] });
    const usdt = await subUsdt(from);
    expect(failure(await moveOut(c, from, to, k))).toEqual({ status: 401, label: 'ACCOUNT_LOCKED' });
    expect(await subUsdt(from)).toBe(usdt);

    expect((await put({ perms: FULL, state: 1 })).status).toBe(204);
    expect((await moveOut(c, from, to, k)).status).toBe(200);
  });

  test('an update without perms or ip_whitelist clears them, as the live documentation says', async () => {
    const sub = c.subs[2]!.uid;
    const k = await newKey(sub, { name: 'clear_me', perms: FULL, ip_whitelist: ['127.0.0.1'] });
    expect((await c.put(`/sub_accounts/${sub}/keys/${k.key}`, { name: 'cleared' })).status).toBe(204);
    expect((await c.get(`/sub_accounts/${sub}/keys/${k.key}`)).json).toMatchObject({ name: 'cleared', perms: [], ip_whitelist: [] });
    expect(failure(await c.get('/spot/accounts', {}, k))).toEqual({ status: 401, label: 'FORBIDDEN' });
  });

  test('a bad update is refused and changes nothing', async () => {
    const sub = c.subs[2]!.uid;
    const k = await newKey(sub);
    const before = (await c.get(`/sub_accounts/${sub}/keys/${k.key}`)).json as SubKey;
    const cases: [string, Record<string, unknown>, number, string][] = [
      [k.key, { perms: [{ name: 'moon' }] }, 400, 'INVALID_PARAM_VALUE'],
      [k.key, { perms: FULL, ip_whitelist: Array.from({ length: 21 }, (_, i) => `10.1.0.${i}`) }, 400, 'INVALID_PARAM_VALUE'],
      [k.key, { perms: FULL, state: 4 }, 400, 'INVALID_PARAM_VALUE'],
      [k.key, { perms: FULL, mode: 2 }, 400, 'INVALID_PARAM_VALUE'],
      [k.key, { perms: FULL, name: '' }, 400, 'INVALID_PARAM_VALUE'],
      ['0'.repeat(32), { perms: FULL }, 404, 'NOT_FOUND'],
      [c.subs[0]!.key, { perms: FULL }, 404, 'NOT_FOUND'],
    ];
    for (const [key, body, status, label] of cases)
      expect({ body, ...failure(await c.put(`/sub_accounts/${sub}/keys/${key}`, body)) }).toEqual({ body, status, label });
    expect((await c.get(`/sub_accounts/${sub}/keys/${k.key}`)).json).toEqual(before);
    expect((await c.get('/spot/accounts', {}, k)).status).toBe(200);
  });

  test('a deleted key is refused at once and is gone from the list', async () => {
    const sub = c.subs[1]!.uid;
    const k = await newKey(sub);
    expect((await c.get('/spot/accounts', {}, k)).status).toBe(200);
    const r = await c.del(`/sub_accounts/${sub}/keys/${k.key}`);
    expect(r.status).toBe(204);
    expect(failure(await c.get('/spot/accounts', {}, k))).toEqual({ status: 401, label: 'INVALID_KEY' });
    expect((await keysOf(sub)).map((x) => x.key)).not.toContain(k.key);
    expect(failure(await c.get(`/sub_accounts/${sub}/keys/${k.key}`))).toEqual({ status: 404, label: 'NOT_FOUND' });
    expect(failure(await c.del(`/sub_accounts/${sub}/keys/${k.key}`))).toEqual({ status: 404, label: 'NOT_FOUND' });
    // Another sub-account's key, named under this sub-account, is not deleted.
    expect(failure(await c.del(`/sub_accounts/${sub}/keys/${c.subs[0]!.key}`))).toEqual({ status: 404, label: 'NOT_FOUND' });
    expect((await c.get('/spot/accounts', {}, c.subs[0])).status).toBe(200);
  });

  test("a locked sub-account's created key is refused until unlock", async () => {
    const sub = c.subs[2]!.uid;
    const k = await newKey(sub);
    expect((await c.post(`/sub_accounts/${sub}/lock`, undefined)).status).toBe(204);
    expect(failure(await c.get('/spot/accounts', {}, k))).toEqual({ status: 401, label: 'ACCOUNT_LOCKED' });
    expect((await c.post(`/sub_accounts/${sub}/unlock`, undefined)).status).toBe(204);
    expect((await c.get('/spot/accounts', {}, k)).status).toBe(200);
  });
});

describe('§8.2 sub-account management: 80 / 10 s per endpoint and UID', () => {
  const lim = useClient({ noLimits: false });

  test('ids share their endpoint bucket; other endpoints keep their own; the window passes', async () => {
    const ids = lim.subs.map((s) => s.uid);
    for (let i = 0; i < 80; i++) expect((await lim.get(`/sub_accounts/${ids[i % ids.length]}`)).status).toBe(200);
    const over = await lim.get(`/sub_accounts/${ids[0]}`);
    expect(failure(over)).toEqual({ status: 429, label: 'TOO_MANY_REQUESTS' });
    expect(over.headers['x-svc-ratelimit-limit']).toBe('80');
    expect((await lim.get(`/sub_accounts/${ids[1]}/keys`)).status).toBe(200);
    expect((await lim.get('/sub_accounts')).status).toBe(200);
    // Another UID (a sub-account's key) has its own bucket, and is refused only for being a sub key.
    expect(failure(await lim.get(`/sub_accounts/${ids[0]}`, {}, lim.subs[0]))).toEqual({ status: 401, label: 'FORBIDDEN' });
    await lim.admin('POST', '/clock/advance', { seconds: 10 });
    expect((await lim.get(`/sub_accounts/${ids[0]}`)).status).toBe(200);
  });
});

describe('admin reset', () => {
  const fresh = useClient();

  test('removes the keys and remarks made over /sub_accounts; the seeded keys stay', async () => {
    const sub = fresh.subs[0]!;
    const made = await fresh.post(`/sub_accounts/${sub.uid}/keys`, { name: 'temp', perms: [{ name: 'spot', read_only: true }] });
    const k = { ...(made.json as { key: string; secret: string }), uid: sub.uid };
    expect((await fresh.get('/spot/accounts', {}, k)).status).toBe(200);
    const remarked = (await fresh.post('/sub_accounts', { login_name: 'gone_after_reset', remark: 'r' })).json as { user_id: number };

    expect((await fresh.admin('POST', '/reset')).status).toBe(200);
    expect(failure(await fresh.get('/spot/accounts', {}, k))).toEqual({ status: 401, label: 'INVALID_KEY' });
    expect(((await fresh.get(`/sub_accounts/${sub.uid}/keys`)).json as { key: string }[]).map((x) => x.key)).toEqual([sub.key]);
    expect((await fresh.get('/spot/accounts', {}, sub)).status).toBe(200);
    expect(failure(await fresh.get(`/sub_accounts/${remarked.user_id}`))).toEqual({ status: 404, label: 'SUB_ACCOUNT_NOT_FOUND' });
    const again = (await fresh.post('/sub_accounts', { login_name: 'gone_after_reset' })).json as { remark: string };
    expect(again.remark).toBe('');
  });
});
