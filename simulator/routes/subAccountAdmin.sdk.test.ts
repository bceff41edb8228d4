import GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { useClient } from '../testkit/client.ts';

// Conformance of §4.4 sub-account management with the live service's official SDK (npm gate-api, its
// SubAccountApi and SubAccount, SubAccountKey, SubAccountKeyPerms models): each endpoint called through
// the SDK's own signer and (de)serializer against the Sandbox, so a field name, a status or a body shape
// the SDK does not expect fails here. The SDK reads the wall clock for its Timestamp, which the Sandbox's
// unadvanced clock follows.

const c = useClient();

function sdk(key: { key: string; secret: string }) {
  const client = new GateApi.ApiClient(c.s.baseUrl);
  client.setApiKeySecret(key.key, key.secret);
  return client;
}

const subApi = () => new GateApi.SubAccountApi(sdk(c.main));

// The SDK parses every body as JSON and logs the failure for the empty body of a 204 (lock, update,
// delete), as it would against the live service; that one message is dropped, any other still shows.
beforeAll(() => {
  const log = console.error.bind(console);
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (args[0] === 'Failed to parse JSON:' && (args[1] as { text?: string } | undefined)?.text === '') return;
    log(...args);
  });
});
afterAll(() => vi.restoreAllMocks());

/** The §7 label and HTTP status of a call the SDK rejected (axios keeps the response). */
async function rejected(p: Promise<unknown>): Promise<{ status: number; label: string }> {
  try {
    await p;
  } catch (e) {
    const r = (e as { response?: { status: number; data: { label?: string } } }).response;
    if (r) return { status: r.status, label: r.data.label ?? '' };
    throw e;
  }
  throw new Error('the call succeeded');
}

function perms(...entries: [string, boolean][]): GateApi.SubAccountKeyPerms[] {
  return entries.map(([name, readOnly]) => Object.assign(new GateApi.SubAccountKeyPerms(), { name, readOnly }));
}

describe('SubAccountApi against the Sandbox', () => {
  test('listSubAccounts, createSubAccounts, getSubAccount', async () => {
    const api = subApi();
    const before = (await api.listSubAccounts()).body;
    expect(before.length).toBeGreaterThan(0);
    expect(before[0]).toBeInstanceOf(GateApi.SubAccount);
    expect(before[0]).toMatchObject({ loginName: expect.any(String), userId: expect.any(Number), state: 1, type: 1 });

    const made = await api.createSubAccounts(Object.assign(new GateApi.SubAccount(), { loginName: 'sdk_made', remark: 'via sdk' }));
    expect(made.response.status).toBe(201);
    expect(made.body).toMatchObject({ loginName: 'sdk_made', remark: 'via sdk', state: 1, type: 1 });
    expect(made.body.createTime).toEqual(expect.any(Number));

    const got = await api.getSubAccount(made.body.userId!);
    expect(got.body).toEqual(made.body);
    expect((await api.listSubAccounts({ type: '0' })).body.length).toBe(before.length + 1);
    expect(await rejected(api.getSubAccount(99999999))).toEqual({ status: 404, label: 'SUB_ACCOUNT_NOT_FOUND' });
    expect(await rejected(api.createSubAccounts(Object.assign(new GateApi.SubAccount(), { loginName: 'sdk_made' })))).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
  });

  test('lockSubAccount and unlockSubAccount: 204, the state the model reads, the key refused between', async () => {
    const api = subApi();
    const sub = c.subs[1]!;
    const own = new GateApi.SpotApi(sdk(sub));
    expect((await own.listSpotAccounts()).response.status).toBe(200);

    expect((await api.lockSubAccount(Number(sub.uid))).response.status).toBe(204);
    expect((await api.getSubAccount(Number(sub.uid))).body.state).toBe(2);
    expect(await rejected(own.listSpotAccounts())).toEqual({ status: 401, label: 'ACCOUNT_LOCKED' });

    expect((await api.unlockSubAccount(Number(sub.uid))).response.status).toBe(204);
    expect((await api.getSubAccount(Number(sub.uid))).body.state).toBe(1);
    expect((await own.listSpotAccounts()).response.status).toBe(200);
  });

  test('createSubAccountKeys, listSubAccountKeys, getSubAccountKey, updateSubAccountKeys, deleteSubAccountKeys', async () => {
    const api = subApi();
    const uid = Number(c.subs[2]!.uid);
    const input = Object.assign(new GateApi.SubAccountKey(), {
      name: 'sdk_key',
      mode: 1,
      perms: perms(['spot', true], ['wallet', false]),
      ipWhitelist: ['127.0.0.1'],
    });
    const made = await api.createSubAccountKeys(uid, input);
    expect(made.response.status).toBe(200);
    expect(made.body).toBeInstanceOf(GateApi.SubAccountKey);
    expect(made.body).toMatchObject({ userId: uid, mode: 1, name: 'sdk_key', ipWhitelist: ['127.0.0.1'], state: 1 });
    expect(made.body.perms).toEqual(perms(['spot', true], ['wallet', false]));
    // The model has no secret field: the SDK drops it, the wire carries it (the live 200 example does).
    const secret = (made.response.data as { secret: string }).secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const key = made.body.key!;

    // The new key signs through the SDK at once, as its sub-account, with the permissions given.
    const own = sdk({ key, secret });
    expect((await new GateApi.SpotApi(own).listSpotAccounts()).response.status).toBe(200);
    expect(await rejected(new GateApi.FuturesApi(own).listFuturesAccounts('usdt'))).toEqual({ status: 401, label: 'FORBIDDEN' });

    expect((await api.listSubAccountKeys(uid)).body.map((k) => k.key)).toContain(key);
    const got = await api.getSubAccountKey(uid, key);
    expect(got.body).toEqual(made.body);

    const update = Object.assign(new GateApi.SubAccountKey(), { name: 'sdk_key2', perms: perms(['spot', true]), state: 3 });
    expect((await api.updateSubAccountKeys(uid, key, update)).response.status).toBe(204);
    expect((await api.getSubAccountKey(uid, key)).body).toMatchObject({ name: 'sdk_key2', state: 3, ipWhitelist: [] });
    expect(await rejected(new GateApi.SpotApi(own).listSpotAccounts())).toEqual({ status: 401, label: 'ACCOUNT_LOCKED' });

    expect((await api.deleteSubAccountKeys(uid, key)).response.status).toBe(204);
    expect(await rejected(api.getSubAccountKey(uid, key))).toEqual({ status: 404, label: 'NOT_FOUND' });
    expect(await rejected(new GateApi.SpotApi(own).listSpotAccounts())).toEqual({ status: 401, label: 'INVALID_KEY' });
  });
});
