import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, KeyStore, signatureString } from './auth.ts';
import { openDb, type DB } from './db.ts';
import { ApiError } from './errors.ts';
import { ALL_WRITE, seedWorld } from './world.ts';

// The Sandbox computes HMAC-SHA512 from two one-shot digests (auth.ts hmacSha512Hex), hashing the
// inner pad and the signature string as one string when the pad is ASCII and through a buffer when it
// is not. These openssl vectors cover what the vectors of auth.vectors.test.ts do not reach: a secret
// longer than SHA-512's 128-byte block (RFC 2104 hashes it first), one of exactly 128 bytes, a short
// one outside ASCII, a signature string longer than the preallocated scratch buffer, and one outside
// ASCII.

function opensslHmac(secret: string, input: string): string {
  const out = execFileSync('openssl', ['dgst', '-sha512', '-hmac', secret], { input }).toString('utf8').trim();
  return out.slice(out.lastIndexOf(' ') + 1);
}

const SECRETS = { short: 'b'.repeat(64), block: 'c'.repeat(128), long: `${'d'.repeat(150)}é`, accented: `é${'b'.repeat(40)}` };
let dataDir: string;
let db: DB;
let keys: KeyStore;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'sandbox-hmac-'));
  db = openDb(dataDir);
  const seed = seedWorld(db, 'demo', Date.now() / 1000);
  for (const [name, secret] of Object.entries(SECRETS)) {
    db.prepare('INSERT INTO api_keys (key, secret, uid, perms, ip_allow, label) VALUES (?, ?, ?, ?, ?, ?)').run(
      `key-${name}`,
      secret,
      seed.main.uid,
      JSON.stringify(ALL_WRITE),
      '[]',
      name,
    );
  }
  keys = new KeyStore(db);
});

afterAll(() => {
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function check(name: keyof typeof SECRETS, rawQuery: string, sign: string, ts: string): string {
  try {
    authenticate(keys, {
      method: 'GET',
      path: '/api/v4/wallet/withdrawals',
      rawQuery,
      body: Buffer.alloc(0),
      headers: { key: `key-${name}`, timestamp: ts, sign },
      ip: '127.0.0.1',
      nowSec: Number(ts),
    });
    return 'ok';
  } catch (e) {
    if (e instanceof ApiError) return e.label;
    throw e;
  }
}

describe('HMAC-SHA512 of the Sandbox against openssl', () => {
  const ts = String(Math.floor(Date.now() / 1000));
  const queries = ['currency=USDT', `memo=${'x'.repeat(40_000)}`, 'currency=BTC'];

  it('accepts what openssl signs for short, block-sized and long secrets, in any order of keys', () => {
    for (const query of queries) {
      for (const name of ['long', 'short', 'block', 'accented', 'long'] as const) {
        const sign = opensslHmac(SECRETS[name], signatureString('GET', '/api/v4/wallet/withdrawals', query, '', ts));
        expect(check(name, query, sign, ts)).toBe('ok');
        // The same signature under another key, or over another query, is refused.
        expect(check(name === 'short' ? 'block' : 'short', query, sign, ts)).toBe('INVALID_SIGNATURE');
        expect(check(name, `${query}0`, sign, ts)).toBe('INVALID_SIGNATURE');
      }
    }
  });

  it('signs the UTF-8 bytes of a decoded query outside ASCII, with either kind of secret', () => {
    for (const name of ['short', 'accented', 'long'] as const) {
      const sign = opensslHmac(SECRETS[name], signatureString('GET', '/api/v4/wallet/withdrawals', 'memo=été 東', '', ts));
      expect(check(name, 'memo=%C3%A9t%C3%A9%20%E6%9D%B1', sign, ts)).toBe('ok');
      expect(check(name, 'memo=%C3%A9t%C3%A9%20%E6%9D%B2', sign, ts)).toBe('INVALID_SIGNATURE');
    }
  });
});
