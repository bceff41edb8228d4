import { request } from 'node:http';
import { expect, test } from 'vitest';
import { SpotOrder } from '../shared/api/orders.ts';
import { sign, type Reply } from './testkit/http.ts';
import { useClient } from './testkit/client.ts';

// The request body as the signature covers it (bodyReader.ts), however it arrives: in the segment that
// carries the headers (the quick read), in pieces some time apart, in chunks of no declared length, or
// declared too large to be read at all.

const c = useClient();

interface Sent {
  /** Content-Length to declare; none sends the body chunked. */
  declare?: number;
  /** Written one after another, PAUSE_MS apart. */
  pieces: string[];
}

const PAUSE_MS = 60;

function placeOrder(body: string, how: Sent): Promise<Reply> {
  const u = new URL(c.s.baseUrl);
  const path = `${u.pathname}/spot/orders`;
  const ts = String(Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    KEY: c.main.key,
    Timestamp: ts,
    SIGN: sign(c.main.secret, 'POST', path, '', body, ts),
    'Content-Type': 'application/json',
  };
  if (how.declare !== undefined) headers['Content-Length'] = String(how.declare);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: 'POST', path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    void (async () => {
      for (const [i, piece] of how.pieces.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, PAUSE_MS));
        req.write(piece);
      }
      req.end();
    })();
  });
}

const order = (text: string) => JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.0012', price: '10000', text });

test('a body in the segment of its headers is read whole', async () => {
  const body = order('t-whole');
  const r = await placeOrder(body, { declare: Buffer.byteLength(body), pieces: [body] });
  expect(r.status, r.text).toBe(201);
  expect(SpotOrder.parse(r.json)).toMatchObject({ text: 't-whole', amount: '0.0012' });
});

test('a body whose second half comes later is read to its end, not from what came first', async () => {
  const body = order('t-halves');
  const half = Math.floor(body.length / 2);
  const r = await placeOrder(body, { declare: Buffer.byteLength(body), pieces: [body.slice(0, half), body.slice(half)] });
  expect(r.status, r.text).toBe(201);
  expect(SpotOrder.parse(r.json)).toMatchObject({ text: 't-halves', amount: '0.0012' });
});

test('a chunked body, with no declared length, is read to its end', async () => {
  const body = order('t-chunked');
  const r = await placeOrder(body, { pieces: [body.slice(0, 10), body.slice(10, 40), body.slice(40)] });
  expect(r.status, r.text).toBe(201);
  expect(SpotOrder.parse(r.json).text).toBe('t-chunked');
});

test('a body declared past 1 MiB is refused before it is sent, and places nothing', async () => {
  const before = c.s.db.prepare('SELECT COUNT(*) AS n FROM spot_orders').get() as { n: number };
  // Nothing of the body is ever written: the answer must come from the declared length alone.
  const r = await placeOrder('', { declare: 2_000_000, pieces: [] });
  expect(r.status).toBe(400);
  expect(r.json).toMatchObject({ label: 'INVALID_REQUEST_BODY', message: 'request body is larger than 1 MiB' });
  expect(c.s.db.prepare('SELECT COUNT(*) AS n FROM spot_orders').get()).toEqual(before);
});

test('a chunked body past 1 MiB is refused', async () => {
  const big = 'x'.repeat(300_000);
  const r = await placeOrder('', { pieces: [big, big, big, big] });
  expect(r.status).toBe(400);
  expect(r.json).toMatchObject({ label: 'INVALID_REQUEST_BODY', message: 'request body is larger than 1 MiB' });
});
