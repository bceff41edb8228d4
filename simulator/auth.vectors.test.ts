import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, KeyStore, signatureString, type SignedRequest } from './auth.ts';
import { openDb, type DB } from './db.ts';
import { ApiError } from './errors.ts';
import { ALL_WRITE, createKey, seedWorld } from './world.ts';

// Signature vectors made by the openssl command, an implementation independent of simulator/auth.ts.

function openssl(args: string[], input: string): string {
  const out = execFileSync('openssl', ['dgst', '-sha512', ...args], { input })
    .toString('utf8')
    .trim();
  return out.slice(out.lastIndexOf(' ') + 1); // "SHA2-512(stdin)= <hex>"
}

interface Vector {
  name: string;
  method: string;
  path: string;
  rawQuery: string;
  decodedQuery: string;
  body: string;
  ts: string;
}

const VECTORS: Vector[] = [
  {
    name: 'GET with a percent-encoded query holding a comma, decimal timestamp',
    method: 'GET',
    path: '/api/v4/wallet/sub_account_balances',
    rawQuery: 'sub_uid=10000101%2C10000102&limit=5',
    decodedQuery: 'sub_uid=10000101,10000102&limit=5',
    body: '',
    ts: '',
  },
  {
    name: 'POST with a JSON body, integer timestamp',
    method: 'POST',
    path: '/api/v4/withdrawals',
    rawQuery: '',
    decodedQuery: '',
    body: '{"withdraw_order_id":"desk-0001","currency":"USDT","amount":"12.5","address":"0xabc","chain":"ETH"}',
    ts: '',
  },
  {
    name: 'DELETE with a path id and no body',
    method: 'DELETE',
    path: '/api/v4/withdrawals/w1234',
    rawQuery: '',
    decodedQuery: '',
    body: '',
    ts: '',
  },
  {
    name: 'GET whose query holds encoded spaces, a colon and a non-ASCII name',
    method: 'GET',
    path: '/api/v4/wallet/withdrawals',
    rawQuery: 'currency=USDT&withdraw_order_id=a%20b%3Ac&memo=caf%C3%A9',
    decodedQuery: 'currency=USDT&withdraw_order_id=a b:c&memo=café',
    body: '',
    ts: '',
  },
];

let dataDir: string;
let db: DB;
let keys: KeyStore;
let secret: string;
let key: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'sandbox-auth-'));
  db = openDb(dataDir);
  const seed = seedWorld(db, 'demo', Date.now() / 1000);
  ({ key, secret } = createKey(db, seed.main.uid, ALL_WRITE, 'vectors'));
  keys = new KeyStore(db);
  const now = Math.floor(Date.now() / 1000);
  VECTORS.forEach((v, i) => {
    v.ts = i % 2 === 0 ? `${now}.123` : String(now);
  });
});

afterAll(() => {
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function request(v: Vector, sign: string, over: Partial<SignedRequest> = {}): SignedRequest {
  return {
    method: v.method,
    path: v.path,
    rawQuery: v.rawQuery,
    body: Buffer.from(v.body),
    headers: { key, timestamp: v.ts, sign },
    ip: '127.0.0.1',
    nowSec: Date.now() / 1000,
    ...over,
  };
}

function labelOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e.label;
    throw e;
  }
  return 'ok';
}

describe('signature (§5.7) against openssl vectors', () => {
  it.each(VECTORS)('$name', (v) => {
    const bodyHash = openssl([], v.body);
    const payload = [v.method, v.path, v.decodedQuery, bodyHash, v.ts].join('\n');
    expect(signatureString(v.method, v.path, v.decodedQuery, Buffer.from(v.body), v.ts)).toBe(payload);

    const sign = openssl(['-hmac', secret], payload);
    expect(authenticate(keys, request(v, sign)).uid).toBe('10000001');
    // Upper-case hex is the same signature.
    expect(labelOf(() => authenticate(keys, request(v, sign.toUpperCase())))).toBe('ok');
    // One changed byte anywhere breaks it.
    expect(labelOf(() => authenticate(keys, request(v, sign, { body: Buffer.from(`${v.body} `) })))).toBe('INVALID_SIGNATURE');
    expect(labelOf(() => authenticate(keys, request(v, sign, { path: `${v.path}x` })))).toBe('INVALID_SIGNATURE');
    expect(labelOf(() => authenticate(keys, request(v, sign, { method: v.method === 'GET' ? 'DELETE' : 'GET' })))).toBe(
      'INVALID_SIGNATURE',
    );
    expect(labelOf(() => authenticate(keys, request(v, openssl(['-hmac', `${secret}0`], payload))))).toBe('INVALID_SIGNATURE');
  });

  it('signs the query decoded and in the order sent: a reordered query is refused', () => {
    const v = VECTORS[0]!;
    const reordered = ['GET', v.path, 'limit=5&sub_uid=10000101,10000102', openssl([], ''), v.ts].join('\n');
    expect(labelOf(() => authenticate(keys, request(v, openssl(['-hmac', secret], reordered))))).toBe('INVALID_SIGNATURE');
  });

  it('also accepts a signature over the query exactly as sent (clients such as ccxt sign it encoded)', () => {
    const v = VECTORS[0]!;
    const asSent = [v.method, v.path, v.rawQuery, openssl([], ''), v.ts].join('\n');
    expect(labelOf(() => authenticate(keys, request(v, openssl(['-hmac', secret], asSent))))).toBe('ok');
  });

  it('checks the timestamp as sent: within 60 s, integer or decimal', () => {
    const v = { ...VECTORS[1]! };
    const at = (ts: string) => {
      const payload = [v.method, v.path, '', openssl([], v.body), ts].join('\n');
      return labelOf(() => authenticate(keys, request({ ...v, ts }, openssl(['-hmac', secret], payload), { nowSec: 1_800_000_000 })));
    };
    expect(at('1800000059')).toBe('ok');
    expect(at('1799999940.5')).toBe('ok');
    expect(at('1800000061')).toBe('REQUEST_EXPIRED');
    expect(at('1799999939.999')).toBe('REQUEST_EXPIRED');
    expect(at('1.8e9')).toBe('REQUEST_EXPIRED');
  });
});
