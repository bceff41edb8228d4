import { describe, expect, it } from 'vitest';
import type { RouteDef } from './server.ts';
import type { RunningSandbox } from './app.ts';
import { admin, send, signed, type Reply } from './testkit/http.ts';
import { useTestSandbox } from './testkit/sandbox.ts';

// §8.2 limits over HTTP. Probe routes stand at the paths of three §8.2 rows (the limit is decided by
// method and path, before any handler runs): POST /withdrawals 1/3 s per UID, GET /wallet/total_balance
// 80/10 s per UID, and the public GET /wallet/currency_chains 200/10 s per IP.

const PROBES: RouteDef[] = [
  { method: 'POST', path: '/withdrawals', group: 'withdraw', handler: () => ({ id: 'w1' }) },
  { method: 'GET', path: '/wallet/total_balance', group: 'wallet', handler: () => ({}) },
  { method: 'GET', path: '/wallet/currency_chains', group: 'public', handler: () => [] },
];

const num = (r: Reply, h: string) => Number(r.headers[h]);
const withdraw = (s: RunningSandbox, k = s.credentials.main) => signed(s.baseUrl, k, { method: 'POST', path: '/withdrawals', body: '{}' });

describe('with limits on', () => {
  const s = useTestSandbox({}, PROBES);

  it('POST /withdrawals: 1 per 3 s per UID, then 429 TOO_MANY_REQUESTS until the window passes', async () => {
    const first = await withdraw(s);
    expect(first.status).toBe(200);
    expect([num(first, 'x-svc-ratelimit-limit'), num(first, 'x-svc-ratelimit-requests-remain')]).toEqual([1, 0]);

    const second = await withdraw(s);
    expect(second.status).toBe(429);
    expect(second.json.label).toBe('TOO_MANY_REQUESTS');
    expect(num(second, 'x-svc-ratelimit-requests-remain')).toBe(0);
    // Reset: Unix milliseconds at which the first request leaves the 3 s window.
    const due = num(first, 'x-in-time') / 1000 + 3000;
    expect(num(second, 'x-svc-ratelimit-reset-timestamp') - due).toBeGreaterThanOrEqual(0);
    expect(num(second, 'x-svc-ratelimit-reset-timestamp') - due).toBeLessThan(50);

    // Another key of the same UID shares the bucket; a sub-account has its own.
    expect((await withdraw(s, s.credentials.read_only)).status).toBe(429);
    expect((await withdraw(s, s.credentials.sub_accounts[0])).status).toBe(200);

    // The admin clock moves the window on without sleeping.
    expect((await admin(s, 'POST', '/clock/advance', { seconds: 3 })).status).toBe(200);
    expect((await withdraw(s)).status).toBe(200);
    expect((await withdraw(s)).status).toBe(429);
  });

  it('GET /wallet/total_balance: 80 per 10 s per UID, failed requests counted too', async () => {
    const { main } = s.credentials;
    const remains: number[] = [];
    for (let i = 0; i < 79; i++) {
      const r = await signed(s.baseUrl, { key: main.key, secret: 'wrong' }, { method: 'GET', path: '/wallet/total_balance' });
      expect(r.json.label).toBe('INVALID_SIGNATURE');
      remains.push(num(r, 'x-svc-ratelimit-requests-remain'));
    }
    expect(remains[0]).toBe(79);
    expect(remains.at(-1)).toBe(1);
    const last = await signed(s.baseUrl, main, { method: 'GET', path: '/wallet/total_balance' });
    expect([last.status, num(last, 'x-svc-ratelimit-requests-remain')]).toEqual([200, 0]);
    const over = await signed(s.baseUrl, main, { method: 'GET', path: '/wallet/total_balance' });
    expect([over.status, over.json.label, num(over, 'x-svc-ratelimit-limit')]).toEqual([429, 'TOO_MANY_REQUESTS', 80]);
    // Other endpoints have buckets of their own.
    expect((await withdraw(s, s.credentials.sub_accounts[1])).status).toBe(200);
  });

  it('public endpoints: 200 per 10 s per source address', async () => {
    const get = (localAddress: string) => send(s.baseUrl, { method: 'GET', path: '/api/v4/wallet/currency_chains', localAddress });
    for (let i = 0; i < 200; i++) expect((await get('127.0.0.1')).status).toBe(200);
    const over = await get('127.0.0.1');
    expect([over.status, over.json.label]).toEqual([429, 'TOO_MANY_REQUESTS']);
    const other = await get('127.0.0.2');
    expect([other.status, num(other, 'x-svc-ratelimit-requests-remain')]).toEqual([200, 199]);
  });

  it('the admin API can forget every window', async () => {
    // Fills the window itself (1 per 3 s), whatever the tests before it sent.
    await withdraw(s);
    expect((await withdraw(s)).status).toBe(429);
    expect((await admin(s, 'POST', '/limits/reset')).status).toBe(200);
    expect((await withdraw(s)).status).toBe(200);
  });
});

describe('with --no-limits', () => {
  const s = useTestSandbox({ noLimits: true }, PROBES);

  it('refuses nothing and still sends the headers, with the full budget', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await withdraw(s);
      expect(r.status).toBe(200);
      expect([num(r, 'x-svc-ratelimit-limit'), num(r, 'x-svc-ratelimit-requests-remain')]).toEqual([1, 1]);
      expect(Math.abs(num(r, 'x-svc-ratelimit-reset-timestamp') - Date.now())).toBeLessThan(5000);
    }
  });
});
