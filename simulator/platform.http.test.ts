import { describe, expect, it } from 'vitest';
import { Clock } from './clock.ts';
import { DEFAULT_OPTIONS } from './options.ts';
import { allRoutes } from './routes/index.ts';
import type { RouteDef } from './server.ts';
import { admin, send, sign, signed, type Key, type Reply } from './testkit/http.ts';
import { useTestSandbox } from './testkit/sandbox.ts';

// Authentication labels (§5.9), the headers of §4.3 and the request-format labels of §7, over HTTP
// against a whole Sandbox.

const TB = '/wallet/total_balance';

// A write route that echoes the parsed body, beside the Sandbox's own routes.
const ECHO: RouteDef = { method: 'POST', path: '/probe/echo', group: 'wallet', handler: ({ body }) => ({ body }) };

const options = { ...DEFAULT_OPTIONS, noLimits: true };
const s = useTestSandbox(options, [...allRoutes({ clock: new Clock(), options }), ECHO]);

const fail = (r: Reply) => `${r.status} ${r.json?.label}`;

describe('authentication (§5)', () => {
  it('accepts a correctly signed GET with an integer or a decimal timestamp', async () => {
    const now = Date.now() / 1000;
    for (const ts of [String(Math.floor(now)), now.toFixed(3), `${Math.floor(now)}.5`]) {
      const r = await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: TB, timestamp: ts });
      expect(r.status, `${ts}: ${r.text}`).toBe(200);
      expect(r.json.total.currency).toBe('USDT');
    }
  });

  it('refuses a timestamp more than 60 s away, in either direction, with REQUEST_EXPIRED', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const ts of [now - 90, now + 90, now - 3600]) {
      expect(fail(await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: TB, timestamp: String(ts) }))).toBe(
        '401 REQUEST_EXPIRED',
      );
    }
    expect(fail(await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: TB, timestamp: 'yesterday' }))).toBe(
      '401 REQUEST_EXPIRED',
    );
  });

  it('names each missing header with MISSING_REQUIRED_HEADER', async () => {
    const full = `${new URL(s.baseUrl).pathname}${TB}`;
    const ts = String(Math.floor(Date.now() / 1000));
    const all = { KEY: s.credentials.main.key, Timestamp: ts, SIGN: sign(s.credentials.main.secret, 'GET', full, '', '', ts) };
    expect((await send(s.baseUrl, { method: 'GET', path: full, headers: all })).status).toBe(200);
    for (const drop of ['KEY', 'Timestamp', 'SIGN'] as const) {
      const headers: Record<string, string> = { ...all };
      delete headers[drop];
      const r = await send(s.baseUrl, { method: 'GET', path: full, headers });
      expect(fail(r)).toBe('401 MISSING_REQUIRED_HEADER');
      expect(r.json.message).toContain(drop);
    }
  });

  it('refuses an unknown key with INVALID_KEY and a wrong secret with INVALID_SIGNATURE', async () => {
    const { key, secret } = s.credentials.main;
    expect(fail(await signed(s.baseUrl, { key: 'f'.repeat(32), secret }, { method: 'GET', path: TB }))).toBe('401 INVALID_KEY');
    expect(fail(await signed(s.baseUrl, { key, secret: `${secret}x` }, { method: 'GET', path: TB }))).toBe('401 INVALID_SIGNATURE');
    expect(
      fail(await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: TB, query: 'currency=BTC', signedQuery: 'currency=USDT' })),
    ).toBe('401 INVALID_SIGNATURE');
  });

  it('signs the query decoded in the order sent: a percent-encoded comma verifies', async () => {
    const r = await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: TB, query: 'currency=BTC&x=a%2Cb' });
    expect(r.status, r.text).toBe(200);
    expect(r.json.total.currency).toBe('BTC');
  });

  it('covers the exact body bytes: a body re-serialised after signing is refused', async () => {
    const full = `${new URL(s.baseUrl).pathname}/probe/echo`;
    const ts = String(Math.floor(Date.now() / 1000));
    const { key, secret } = s.credentials.main;
    const post = (signedBody: string, sentBody: string) =>
      send(s.baseUrl, {
        method: 'POST',
        path: full,
        body: sentBody,
        headers: { KEY: key, Timestamp: ts, SIGN: sign(secret, 'POST', full, '', signedBody, ts), 'Content-Type': 'application/json' },
      });
    // Same JSON value, different bytes.
    expect(fail(await post('{"a":1}', '{"a": 1}'))).toBe('401 INVALID_SIGNATURE');
    const ok = await post('{"a": 1}', '{"a": 1}');
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ body: { a: 1 } });
  });
});

describe('permission groups on the real withdrawal routes (§5.2, §5.5)', () => {
  const key = async (perms: Record<string, string>): Promise<Key> =>
    (await admin(s, 'POST', '/keys', { uid: '10000001', perms })).json as Key;
  const withdraw = (k: Key) => signed(s.baseUrl, k, { method: 'POST', path: '/withdrawals', body: '{}' });
  const list = (k: Key) => signed(s.baseUrl, k, { method: 'GET', path: '/wallet/withdrawals' });

  it('POST /withdrawals is in the withdrawal group, GET /wallet/withdrawals stays in the wallet group', async () => {
    const walletOnly = await key({ wallet: 'write' });
    expect(fail(await withdraw(walletOnly))).toBe('401 FORBIDDEN');
    expect((await list(walletOnly)).status).toBe(200);
    const withdrawOnly = await key({ withdraw: 'write' });
    expect(fail(await list(withdrawOnly))).toBe('401 FORBIDDEN');
    // Past authentication: the empty body is the handler's to refuse.
    expect((await withdraw(withdrawOnly)).status).toBe(400);
    expect(fail(await withdraw(s.credentials.read_only))).toBe('401 READ_ONLY');
  });

  it('sub-account keys cannot withdraw', async () => {
    expect(fail(await withdraw(s.credentials.sub_accounts[0]!))).toBe('401 FORBIDDEN');
  });
});

describe('response headers (§4.3)', () => {
  it('every answer carries the rate-limit, time and trace headers, success or failure', async () => {
    const replies = [
      await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: TB }),
      await signed(s.baseUrl, { key: 'nope', secret: 'x' }, { method: 'GET', path: TB }),
      await send(s.baseUrl, { method: 'GET', path: '/api/v4/no/such/path' }),
      await send(s.baseUrl, { method: 'PATCH', path: `/api/v4${TB}` }),
    ];
    const traces = new Set<string>();
    for (const r of replies) {
      const h = r.headers;
      for (const name of [
        'x-svc-ratelimit-requests-remain',
        'x-svc-ratelimit-limit',
        'x-svc-ratelimit-reset-timestamp',
        'x-in-time',
        'x-out-time',
        'x-svc-trace-id',
      ]) {
        expect(h[name], `${name} on ${r.status}`).toMatch(/^[0-9a-f]+$/);
      }
      const inT = Number(h['x-in-time']);
      const outT = Number(h['x-out-time']);
      // Microseconds since the epoch: 16 digits today, and the answer leaves after it arrives.
      expect(String(h['x-in-time'])).toHaveLength(16);
      expect(Math.abs(inT / 1e6 - Date.now() / 1000)).toBeLessThan(5);
      expect(outT).toBeGreaterThanOrEqual(inT);
      // Not refused: the reset timestamp is the current time, in Unix milliseconds.
      expect(Math.abs(Number(h['x-svc-ratelimit-reset-timestamp']) - Date.now())).toBeLessThan(5000);
      traces.add(String(h['x-svc-trace-id']));
    }
    expect(traces.size).toBe(replies.length);
    expect(replies[0]!.headers['x-svc-ratelimit-limit']).toBe('80'); // §8.2 total_balance row
  });
});

describe('request-format errors (§7)', () => {
  it('unknown path: 404 NOT_FOUND; known path, wrong method: 400 METHOD_NOT_ALLOWED', async () => {
    expect(fail(await send(s.baseUrl, { method: 'GET', path: '/api/v4/wallet/nothing' }))).toBe('404 NOT_FOUND');
    expect(fail(await send(s.baseUrl, { method: 'GET', path: '/elsewhere' }))).toBe('404 NOT_FOUND');
    expect(fail(await send(s.baseUrl, { method: 'DELETE', path: `/api/v4${TB}` }))).toBe('400 METHOD_NOT_ALLOWED');
  });

  it('a missing parameter: 400 MISSING_REQUIRED_PARAM', async () => {
    const r = await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: '/wallet/deposit_address' });
    expect(fail(r)).toBe('400 MISSING_REQUIRED_PARAM');
  });

  it('a value out of range: 400 INVALID_PARAM_VALUE', async () => {
    const r = await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: TB, query: 'currency=DOGECOIN' });
    expect(fail(r)).toBe('400 INVALID_PARAM_VALUE');
    expect(typeof r.json.message).toBe('string');
  });

  it('a body that is not JSON: INVALID_REQUEST_BODY; a body of another type: INVALID_CONTENT_TYPE', async () => {
    const { main } = s.credentials;
    const echo = { method: 'POST', path: '/probe/echo' };
    expect(fail(await signed(s.baseUrl, main, { ...echo, body: '{"currency":' }))).toBe('400 INVALID_REQUEST_BODY');
    expect(fail(await signed(s.baseUrl, main, { ...echo, body: 'currency=USDT', contentType: 'application/x-www-form-urlencoded' }))).toBe(
      '400 INVALID_CONTENT_TYPE',
    );
    expect(fail(await signed(s.baseUrl, main, { ...echo, body: '{}', contentType: 'text/plain' }))).toBe('400 INVALID_CONTENT_TYPE');
    expect((await signed(s.baseUrl, main, { ...echo, body: '{}', contentType: 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('an Accept header that rules JSON out: NOT_ACCEPTABLE', async () => {
    const { main } = s.credentials;
    expect(fail(await signed(s.baseUrl, main, { method: 'GET', path: TB, extraHeaders: { Accept: 'text/html' } }))).toBe(
      '400 NOT_ACCEPTABLE',
    );
    expect((await signed(s.baseUrl, main, { method: 'GET', path: TB, extraHeaders: { Accept: 'text/html, */*;q=0.1' } })).status).toBe(200);
  });
});
