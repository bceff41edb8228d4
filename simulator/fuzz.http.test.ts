import fc from 'fast-check';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Clock } from './clock.ts';
import { DEFAULT_OPTIONS } from './options.ts';
import { allRoutes } from './routes/index.ts';
import type { RunningSandbox } from './app.ts';
import { send, sign, signed, type Reply } from './testkit/http.ts';
import { useTestSandbox } from './testkit/sandbox.ts';

// Malformed requests of every kind: no answer may be a 5xx, every failure is {label, message}, and the
// server still answers a good request afterwards. Runs against the whole Sandbox with its real routes.

const ROUTES = allRoutes({ clock: new Clock(), options: DEFAULT_OPTIONS });
const URLISH = /^[A-Za-z0-9%._~!$&'()*+,;=:@/-]{0,40}$/;
const PRINTABLE = /^[\x20-\x7e]{0,200}$/;

const segment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9%._~-]{0,20}$/),
  fc.constantFrom('..', '%', '%zz', '%00', '%2F', 'w123', '0', '-1', 'ä'.normalize()).map(encodeURI),
);
const queryPart = fc.oneof(
  fc.stringMatching(URLISH),
  fc.constantFrom(
    '',
    '&&&',
    '=',
    'limit=-1',
    'limit=1e9',
    'limit=abc',
    'from=99999999999999999999',
    'currency=%',
    'currency=%ZZ',
    'page=0',
    'offset=-5',
    `x=${'9'.repeat(5000)}`,
    'currency_pair=BTC_USDT',
    'currency_pair=BTC_USDT&status=open',
    'currency_pair=BTC_USDT&status=finished&limit=2',
    'currency_pair=ETH_BTC&side=sell',
    'currency_pair=BTC_USDT&limit=100&with_id=true',
    'currency_pair=btc_usdt',
    'currency_pair=BTC_USDT&interval=0.1',
    'currency_pair=BTC_USDT&order_id=1',
  ),
  fc
    .array(fc.tuple(fc.stringMatching(/^[a-z_]{1,12}$/), fc.stringMatching(/^[A-Za-z0-9%,._-]{0,30}$/)), { maxLength: 6 })
    .map((kv) => kv.map(([k, v]) => `${k}=${v}`).join('&')),
);
const routePath = fc.constantFrom(...ROUTES.map((r) => r.path)).chain((p) =>
  fc.array(segment, { minLength: 3, maxLength: 3 }).map((vals) => {
    let i = 0;
    return p.replace(/:[^/]+/g, () => vals[i++] || 'x');
  }),
);
const anyPath = fc.oneof(
  routePath,
  fc.array(segment, { maxLength: 5 }).map((s) => `/${s.join('/')}`),
  fc.stringMatching(URLISH).map((s) => `/${s}`),
);
const method = fc.oneof(
  fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND'),
  fc.stringMatching(/^[A-Z]{1,8}$/),
);
const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    '',
    '*/*',
    'application/json;;;',
  ),
  fc.stringMatching(PRINTABLE),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json(),
  fc.string(),
  fc.constantFrom(
    '{',
    '[]',
    'null',
    '{"amount":"1e400"}',
    '{"currency":{"$ne":1}}',
    '{"__proto__":{"x":1}}',
    '{"amount":"-1","currency":"USDT","address":"x"}',
    '\u0000\u0001',
  ),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  fc.constant('HUGE'), // replaced by 1.2 MB at send time, above the 1 MiB body limit
);
const HUGE = 'x'.repeat(1_200_000);
// Spot order bodies: mostly well-formed with one odd field, so that they reach the market's checks.
const orderBody = fc
  .record(
    {
      currency_pair: fc.constantFrom('BTC_USDT', 'ETH_BTC', 'XRP_USDT', 'NOPE_USDT', '', 1),
      side: fc.constantFrom('buy', 'sell', 'hold', null),
      type: fc.constantFrom('limit', 'market', 'stop', undefined),
      account: fc.constantFrom('spot', 'margin', 'unified', 7, undefined),
      amount: fc.constantFrom('0.001', '1', '0', '-1', '1e3', '0.0000000001', '99999999999999999999', 0.5, '', undefined),
      price: fc.constantFrom('60000', '1', '0.00001', '1e9', '9007199254740993', '-5', undefined),
      time_in_force: fc.constantFrom('gtc', 'ioc', 'poc', 'fok', 'day', undefined),
      text: fc.constantFrom('t-ok', 'bad', `t-${'x'.repeat(40)}`, 't-ä', undefined),
      stp_act: fc.constantFrom('cn', 'co', 'cb', 'xx', undefined),
      auto_borrow: fc.constantFrom(true, false, 'yes', undefined),
      id: fc.constantFrom('1', 't-ok', 'x', undefined),
    },
    { requiredKeys: [] },
  )
  .chain((o) => fc.constantFrom(JSON.stringify(o), JSON.stringify([o, o]), JSON.stringify(Array(25).fill(o))));
const timestamp = fc.oneof(
  fc.constant('now'),
  fc.constantFrom('', '0', '-1', '1e309', 'NaN', '9'.repeat(400), '1.', '.5', '0x10', ' 1700000000'),
  fc.stringMatching(PRINTABLE),
);

function checkReply(r: Reply, m: string): void {
  expect(r.status, r.text.slice(0, 300)).toBeLessThan(500);
  expect(r.status).toBeGreaterThanOrEqual(200);
  if (r.status >= 400 && m !== 'HEAD') {
    expect(typeof r.json?.label, r.text.slice(0, 300)).toBe('string');
    expect(typeof r.json?.message).toBe('string');
  }
}

async function stillAnswers(s: RunningSandbox): Promise<void> {
  const r = await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: '/wallet/total_balance' });
  expect(r.status).toBe(200);
}

for (const noLimits of [true, false]) {
  describe(`fuzz (${noLimits ? 'limits off' : 'limits on'})`, () => {
    const s = useTestSandbox({ noLimits });

    it('unsigned and badly signed requests: never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(
          method,
          anyPath,
          queryPart,
          body,
          contentType,
          fc.record(
            {
              key: fc.oneof(fc.constant('main'), fc.stringMatching(PRINTABLE)),
              ts: timestamp,
              sign: fc.oneof(fc.constant('good'), fc.stringMatching(PRINTABLE)),
            },
            { requiredKeys: [] },
          ),
          async (m, path, query, b, ct, h) => {
            const full = `/api/v4${path}${query ? `?${query}` : ''}`;
            const headers: Record<string, string> = {};
            const ts = h.ts === 'now' ? String(Math.floor(Date.now() / 1000)) : h.ts;
            if (h.key !== undefined) headers.KEY = h.key === 'main' ? s.credentials.main.key : h.key;
            if (ts !== undefined) headers.Timestamp = ts;
            if (h.sign !== undefined) {
              headers.SIGN =
                h.sign === 'good'
                  ? sign(s.credentials.main.secret, m, `/api/v4${path}`, decodeSafe(query), typeof b === 'string' ? b : '', ts ?? '')
                  : h.sign;
            }
            if (b !== undefined) headers['Content-Type'] = ct;
            const r = await send(s.baseUrl, { method: m, path: full, headers, body: b === 'HUGE' ? HUGE : b });
            checkReply(r, m);
          },
        ),
        { numRuns: noLimits ? 250 : 120 },
      );
      await stillAnswers(s);
    });

    it('correctly signed requests to every route with odd values: never a 5xx', async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(
          routePath,
          queryPart,
          fc.oneof(
            fc.constant(''),
            fc.json(),
            fc.constantFrom('{}', '{"currency":"USDT","amount":"0.000000001"}', '{"amount":"1e5"}', '[1,2]'),
            orderBody,
          ),
          async (path, query, b) => {
            const route = ROUTES.find((r) => new RegExp(`^${r.path.replace(/:[^/]+/g, '[^/]+')}$`).test(path));
            const m = route?.method ?? 'GET';
            let decoded: string;
            try {
              decoded = decodeURIComponent(query);
            } catch {
              return;
            }
            const r = await signed(s.baseUrl, s.credentials.main, {
              method: m,
              path,
              query,
              signedQuery: decoded,
              body: m === 'GET' || m === 'DELETE' ? '' : b,
            });
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            checkReply(r, m);
          },
        ),
        { numRuns: noLimits ? 250 : 80 },
      );
      // The signature held, so the requests reached the handlers: some succeed, some are refused by them.
      expect(statuses.get(200) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
      expect(statuses.get(400) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
      await stillAnswers(s);
    });

    it('spot order routes with odd orders, ids and queries: never a 5xx, and some orders are accepted', async () => {
      const statuses = new Map<number, number>();
      const call = fc.oneof(
        fc.tuple(fc.constant('POST'), fc.constantFrom('/spot/orders', '/spot/cancel_batch_orders'), fc.constant(''), orderBody),
        fc.tuple(
          fc.constantFrom('GET', 'DELETE'),
          fc.constantFrom('/spot/orders/1', '/spot/orders/t-ok', '/spot/orders/x', '/spot/orders/99999999999999999', '/spot/orders'),
          queryPart,
          fc.constant(''),
        ),
      );
      await fc.assert(
        fc.asyncProperty(call, async ([m, path, query, b]) => {
          let decoded: string;
          try {
            decoded = decodeURIComponent(query);
          } catch {
            return;
          }
          const r = await signed(s.baseUrl, s.credentials.main, { method: m, path, query, signedQuery: decoded, body: b });
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          checkReply(r, m);
        }),
        { numRuns: noLimits ? 300 : 80 },
      );
      expect((statuses.get(201) ?? 0) + (statuses.get(200) ?? 0), JSON.stringify([...statuses])).toBeGreaterThan(0);
      await stillAnswers(s);
    });
  });
}

function decodeSafe(q: string): string {
  try {
    return decodeURIComponent(q);
  } catch {
    return q;
  }
}

describe('fuzz: bytes that are not HTTP', () => {
  const s = useTestSandbox({ noLimits: true });

  it('the server answers 4xx or closes, and keeps serving', async () => {
    const { port } = new URL(s.baseUrl);
    const raw = fc.oneof(
      fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.from(b)),
      fc
        .tuple(method, fc.stringMatching(PRINTABLE), fc.stringMatching(PRINTABLE))
        .map(([m, p, h]) => Buffer.from(`${m} /api/v4/${p} HTTP/1.1\r\nHost: x\r\n${h}\r\n\r\n`)),
      fc
        .constantFrom(
          'GET /api/v4/wallet/total_balance HTTP/1.1\r\nContent-Length: -1\r\n\r\n',
          'POST /api/v4/withdrawals HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n',
          'POST /api/v4/withdrawals HTTP/1.1\r\nContent-Length: 10\r\nContent-Length: 5\r\n\r\n',
          `GET /api/v4/${'a'.repeat(100_000)} HTTP/1.1\r\n\r\n`,
          `GET / HTTP/1.1\r\nX: ${'b'.repeat(20_000)}\r\n\r\n`,
        )
        .map((t) => Buffer.from(t)),
    );
    await fc.assert(
      fc.asyncProperty(raw, async (bytes) => {
        const answer = await new Promise<string>((resolve) => {
          const sock = connect(Number(port), '127.0.0.1');
          let got = '';
          sock.on('data', (d) => {
            got += d.toString('latin1');
          });
          sock.on('error', () => resolve(got));
          sock.on('close', () => resolve(got));
          sock.write(bytes);
          setTimeout(() => sock.end(), 50);
          setTimeout(() => sock.destroy(), 2000);
        });
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1];
        if (status) expect(Number(status), answer.slice(0, 300)).toBeLessThan(500);
      }),
      { numRuns: 120 },
    );
    await stillAnswers(s);
  });
});
