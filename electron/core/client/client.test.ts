import { z } from 'zod';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiClient } from './client.ts';
import { ExchangeError, NetworkError } from '../errors.ts';
import { Scheduler, type BucketState } from './scheduler.ts';
import { BASE_URL, RateLimitedExchange } from './testkit/rateLimitedExchange.ts';
import { FakeTime } from './testkit/fakeTime.ts';

const CREDS = { key: 'KEY-abcdef123456', secret: 'SECRET-0f9e8d7c6b5a' };
const FIVE_MINUTES = 5 * 60_000;

function setup(serverOffsetMs = 0, events?: BucketState[][]) {
  const time = new FakeTime();
  const ex = new RateLimitedExchange(time, { serverOffsetMs });
  const scheduler = new Scheduler({ timer: time, onState: events ? (s) => events.push(s) : undefined });
  const client = new ApiClient({
    baseUrl: BASE_URL,
    credentials: CREDS,
    fetch: ex.fetch,
    timer: time,
    scheduler,
    timeoutMs: 2_000,
    random: () => 0.5,
  });
  return { time, ex, client };
}

async function failure(p: Promise<unknown>, time: FakeTime): Promise<unknown> {
  try {
    await time.run(p);
  } catch (e) {
    return e;
  }
  throw new Error('expected the request to fail');
}

describe('clock offset', () => {
  for (const offset of [FIVE_MINUTES, -FIVE_MINUTES]) {
    it(`recovers from REQUEST_EXPIRED with one resync and one retry (desktop clock ${offset > 0 ? 'behind' : 'ahead'} by 5 min)`, async () => {
      const { time, ex, client } = setup(offset);
      ex.on('GET', '/wallet/total_balance', () => ({ body: { total: { amount: '1', currency: 'USDT' }, details: {} } }));
      const tb = await time.run(
        client.request({ method: 'GET', path: '/wallet/total_balance' }, z.custom<{ total: { amount: string } }>()),
      );
      expect(tb.total.amount).toBe('1');
      expect(ex.arrivals.map((a) => `${a.path} ${a.status}`)).toEqual([
        '/wallet/total_balance 401',
        '/spot/time 200',
        '/wallet/total_balance 200',
      ]);
      expect(Math.abs(client.clock.offsetMs - offset)).toBeLessThan(1_000);
      // From now on every signed request carries the server's time.
      await time.run(client.request({ method: 'GET', path: '/wallet/deposits' }, z.unknown()));
      expect(ex.arrivals.at(-1)!.status).toBe(200);
      expect(ex.arrivals.filter((a) => a.status === 401)).toHaveLength(1);
    });
  }

  it('resends a write refused with REQUEST_EXPIRED exactly once (it was refused, not applied)', async () => {
    const { time, ex, client } = setup(FIVE_MINUTES);
    ex.on('POST', '/withdrawals', () => ({ body: { id: 'w1', status: 'REQUEST' } }));
    const res = await time.run(
      client.request(
        {
          method: 'POST',
          path: '/withdrawals',
          body: { withdraw_order_id: 'td-1', amount: '1', currency: 'USDT', address: 'x' },
          priority: 'action',
        },
        z.custom<{ id: string }>(),
      ),
    );
    expect(res.id).toBe('w1');
    expect(ex.arrivals.map((a) => `${a.method} ${a.path} ${a.status}`)).toEqual([
      'POST /withdrawals 401',
      'GET /spot/time 200',
      'POST /withdrawals 200',
    ]);
  });

  it('learns the offset from X-In-Time on any answer, so a synced desk never sees REQUEST_EXPIRED', async () => {
    const { time, ex, client } = setup(-FIVE_MINUTES);
    await time.run(client.request({ method: 'GET', path: '/spot/currencies', signed: false }, z.unknown()));
    await time.run(client.request({ method: 'GET', path: '/wallet/withdrawals' }, z.unknown()));
    expect(ex.arrivals.map((a) => a.status)).toEqual([200, 200]);
    expect(ex.count('GET', '/spot/time')).toBe(0);
  });

  it('follows a server clock that jumps while the desk runs', async () => {
    const { time, ex, client } = setup(0);
    await time.run(client.syncClock());
    ex.setServerOffset(FIVE_MINUTES);
    await time.run(client.request({ method: 'GET', path: '/wallet/withdrawals' }, z.unknown()));
    await time.run(client.request({ method: 'GET', path: '/wallet/withdrawals' }, z.unknown()));
    expect(ex.arrivals.map((a) => `${a.path} ${a.status}`)).toEqual([
      '/spot/time 200',
      '/wallet/withdrawals 401',
      '/spot/time 200',
      '/wallet/withdrawals 200',
      '/wallet/withdrawals 200',
    ]);
  });

  it('resyncs only once: a second REQUEST_EXPIRED reaches the caller', async () => {
    const { time, ex, client } = setup(0);
    ex.on('GET', '/wallet/fee', () => ({ status: 401, body: { label: 'REQUEST_EXPIRED', message: 'expired' } }));
    const e = await failure(client.request({ method: 'GET', path: '/wallet/fee' }, z.unknown()), time);
    expect(e).toBeInstanceOf(ExchangeError);
    expect((e as ExchangeError).label).toBe('REQUEST_EXPIRED');
    expect(ex.count('GET', '/wallet/fee')).toBe(2);
    expect(ex.count('GET', '/spot/time')).toBe(1);
  });
});

describe('retries', () => {
  it('retries a read after 5xx answers with growing waits, and returns its answer', async () => {
    const { time, ex, client } = setup();
    let n = 0;
    ex.on('GET', '/wallet/deposits', () =>
      ++n <= 2 ? { status: 503, body: { label: 'TOO_BUSY', message: 'busy' } } : { body: [{ id: 'd1' }] },
    );
    const rows = await time.run(client.request({ method: 'GET', path: '/wallet/deposits' }, z.custom<Array<{ id: string }>>()));
    expect(rows).toEqual([{ id: 'd1' }]);
    const at = ex.arrivals.map((a) => a.at);
    expect(at).toHaveLength(3);
    expect(at[2]! - at[1]!).toBeGreaterThan(at[1]! - at[0]!);
  });

  it('gives up on a read after a bounded number of attempts', async () => {
    const { time, ex, client } = setup();
    ex.on('GET', '/wallet/deposits', () => ({ status: 500, body: { label: 'INTERNAL', message: 'boom' } }));
    const e = await failure(client.request({ method: 'GET', path: '/wallet/deposits' }, z.unknown()), time);
    expect((e as ExchangeError).label).toBe('INTERNAL');
    expect(ex.count('GET', '/wallet/deposits')).toBe(4);
  });

  it('retries a read that timed out', async () => {
    const { time, ex, client } = setup();
    let n = 0;
    ex.on('GET', '/wallet/withdrawals', () => (++n === 1 ? { hang: true } : { body: [] }));
    await time.run(client.request({ method: 'GET', path: '/wallet/withdrawals' }, z.unknown()));
    expect(ex.count('GET', '/wallet/withdrawals')).toBe(2);
  });

  it('does not retry a read the exchange refused (4xx)', async () => {
    const { time, ex, client } = setup();
    ex.on('GET', '/wallet/withdrawals', () => ({ status: 400, body: { label: 'INVALID_PARAM_VALUE', message: 'range over 30 days' } }));
    const e = (await failure(client.request({ method: 'GET', path: '/wallet/withdrawals' }, z.unknown()), time)) as ExchangeError;
    expect(e.label).toBe('INVALID_PARAM_VALUE');
    expect(e.ambiguous).toBe(false);
    expect(ex.count('GET', '/wallet/withdrawals')).toBe(1);
  });

  it('never retries a write after a 5xx, and calls it ambiguous', async () => {
    const { time, ex, client } = setup();
    ex.on('POST', '/wallet/sub_account_transfers', () => ({ status: 502, body: { label: 'SERVER_ERROR', message: 'bad gateway' } }));
    const e = (await failure(
      client.request(
        { method: 'POST', path: '/wallet/sub_account_transfers', body: { client_order_id: 'c1' }, priority: 'action' },
        z.unknown(),
      ),
      time,
    )) as ExchangeError;
    expect(e).toBeInstanceOf(ExchangeError);
    expect(e.ambiguous).toBe(true);
    expect(e.status).toBe(502);
    expect(ex.count('POST', '/wallet/sub_account_transfers')).toBe(1);
  });

  it('never retries a write that timed out, and calls it ambiguous', async () => {
    const { time, ex, client } = setup();
    ex.on('POST', '/withdrawals', () => ({ hang: true }));
    const e = (await failure(
      client.request({ method: 'POST', path: '/withdrawals', body: { withdraw_order_id: 'td-9' } }, z.unknown()),
      time,
    )) as NetworkError;
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.timedOut).toBe(true);
    expect(e.ambiguous).toBe(true);
    expect(ex.count('POST', '/withdrawals')).toBe(1);
  });

  it('never retries a write refused with 429, and calls it not applied', async () => {
    const { time, ex, client } = setup();
    ex.external('POST', '/withdrawals', 'KEY-abcdef123456', 1);
    const e = (await failure(client.request({ method: 'POST', path: '/withdrawals', body: {} }, z.unknown()), time)) as ExchangeError;
    expect(e.status).toBe(429);
    expect(e.ambiguous).toBe(false);
    expect(e.retryAt).toBeGreaterThan(time.now() - 1);
    expect(ex.count('POST', '/withdrawals')).toBe(1);
  });

  it('calls a refused connection not applied (nothing left this machine)', async () => {
    // A port that was just free and is now closed: connection refused on loopback.
    const port = await new Promise<number>((resolve) => {
      const srv = createServer();
      srv.listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}/api/v4`, credentials: CREDS, limitsOff: true });
    const e = await client.request({ method: 'POST', path: '/withdrawals', body: {} }, z.unknown()).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect((e as NetworkError).ambiguous).toBe(false);
    expect((e as NetworkError).message).toContain('ECONNREFUSED');
  });
});

describe('secrets', () => {
  it('puts neither the secret nor the key in errors or bucket events', async () => {
    const events: BucketState[][] = [];
    const { time, ex, client } = setup(0, events);
    ex.on('GET', '/wallet/fee', () => ({ status: 401, body: { label: 'INVALID_SIGNATURE', message: 'signature mismatch' } }));
    ex.on('POST', '/withdrawals', () => ({ hang: true }));
    const errors = [
      await failure(client.request({ method: 'GET', path: '/wallet/fee' }, z.unknown()), time),
      await failure(client.request({ method: 'POST', path: '/withdrawals', body: { amount: '1' } }, z.unknown()), time),
    ];
    const seen = JSON.stringify([
      errors.map((e) => ({ message: (e as Error).message, stack: (e as Error).stack, ...(e as object) })),
      events,
    ]);
    expect(events.length).toBeGreaterThan(0);
    expect(seen).not.toContain(CREDS.secret);
    expect(seen).not.toContain(CREDS.key);
    expect(ex.arrivals.map((a) => a.headers.SIGN).every((s) => /^[0-9a-f]{128}$/.test(s!))).toBe(true);
    expect(seen).not.toContain(ex.arrivals[0]!.headers.SIGN!);
  });
});

describe('list answers checked in steps', () => {
  /** A client whose exchange answers every read with `n` records {i}. */
  function listing(n: number) {
    const body = JSON.stringify(Array.from({ length: n }, (_, i) => ({ i })));
    const fetch = (async () =>
      new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } })) as typeof globalThis.fetch;
    return new ApiClient({ baseUrl: 'https://exchange.test/api/v4', credentials: CREDS, fetch, limitsOff: true });
  }

  for (const priority of ['background', 'visible', 'action'] as const) {
    it(`lets the event loop run between the checks of a 1,000-record page read at ${priority} priority`, async () => {
      const order: Array<number | 'turn'> = [];
      const record = z.custom<{ i: number }>((v) => {
        const i = (v as { i: number }).i;
        // A request from the window that arrived as the answer is checked: it is answered at the next turn.
        if (i === 0) setImmediate(() => order.push('turn'));
        order.push(i);
        return true;
      });
      const answer = await listing(1_000).requestList({ method: 'GET', path: '/wallet/withdrawals', priority }, record);
      await new Promise((r) => setImmediate(r));
      expect(answer.records).toHaveLength(1_000);
      expect(order.indexOf('turn')).toBeLessThan(200);
      // Every record checked once, in order.
      expect(order.filter((x) => x !== 'turn')).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    });
  }
});
