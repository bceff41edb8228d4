import { z } from 'zod';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ApiClient } from './client.ts';
import { encodeQuery, sign } from './sign.ts';
import { BASE_URL, RateLimitedExchange } from './testkit/rateLimitedExchange.ts';
import { FakeTime } from './testkit/fakeTime.ts';

// Vectors come from the openssl command, an implementation independent of node:crypto and of sign.ts.

function opensslSha512(data: string): string {
  const out = execFileSync('openssl', ['dgst', '-sha512'], { input: data }).toString();
  return out.trim().split('= ').at(-1)!;
}

function opensslHmacSha512(secret: string, data: string): string {
  const out = execFileSync('openssl', ['dgst', '-sha512', '-hmac', secret], { input: data }).toString();
  return out.trim().split('= ').at(-1)!;
}

/** §5.7: method, path, decoded query, hex SHA512 of the body, timestamp, joined by line feeds. */
function expected(secret: string, method: string, path: string, query: string, body: string, ts: string): string {
  return opensslHmacSha512(secret, [method, path, query, opensslSha512(body), ts].join('\n'));
}

const SECRET = 'a3f1c0ffee5ecret0123456789abcdef';

describe('§5.7 signature vectors from openssl', () => {
  it('signs a GET without query or body (hash of the empty string)', () => {
    expect(opensslSha512('')).toMatch(/^cf83e1357eefb8bd/);
    expect(sign(SECRET, 'GET', '/api/v4/wallet/total_balance', '', '', '1767225600')).toBe(
      expected(SECRET, 'GET', '/api/v4/wallet/total_balance', '', '', '1767225600'),
    );
  });

  it('sends a comma percent-encoded and signs it decoded, in the order sent', () => {
    const q = encodeQuery([
      ['sub_uid', '101,102'],
      ['from', '1764633600'],
      ['limit', '1000'],
    ]);
    expect(q.sent).toBe('sub_uid=101%2C102&from=1764633600&limit=1000');
    expect(q.signed).toBe('sub_uid=101,102&from=1764633600&limit=1000');
    expect(sign(SECRET, 'GET', '/api/v4/wallet/sub_account_transfers', q.signed, '', '1767225600')).toBe(
      expected(SECRET, 'GET', '/api/v4/wallet/sub_account_transfers', 'sub_uid=101,102&from=1764633600&limit=1000', '', '1767225600'),
    );
  });

  it('signs a JSON body by the SHA512 of its exact bytes, and a decimal timestamp as sent', () => {
    const body = JSON.stringify({
      withdraw_order_id: 'td-20260101-0001',
      currency: 'USDT',
      amount: '12.5',
      address: 'TQx9…',
      memo: 'é',
      chain: 'TRX',
    });
    expect(sign(SECRET, 'post', '/api/v4/withdrawals', '', body, '1767225600.123')).toBe(
      expected(SECRET, 'POST', '/api/v4/withdrawals', '', body, '1767225600.123'),
    );
  });

  it('puts on the wire what it signed: the client request checks out against openssl', async () => {
    const time = new FakeTime(1_767_225_600_000);
    const ex = new RateLimitedExchange(time, { limits: false });
    const client = new ApiClient({ baseUrl: BASE_URL, credentials: { key: 'KEY1', secret: SECRET }, fetch: ex.fetch, timer: time });
    await time.run(
      client.request(
        {
          method: 'GET',
          path: '/wallet/sub_account_transfers',
          query: [
            ['sub_uid', '7,8'],
            ['limit', '1000'],
          ],
        },
        z.unknown(),
      ),
    );
    const body = { sub_account: '7', currency: 'USDT', amount: '1.5', direction: 'to', client_order_id: 'td-1' };
    await time.run(client.request({ method: 'POST', path: '/wallet/sub_account_transfers', body }, z.unknown()));

    const [get, post] = ex.arrivals;
    expect(get!.query.toString()).toBe('sub_uid=7%2C8&limit=1000');
    expect(get!.headers.SIGN).toBe(
      expected(SECRET, 'GET', '/api/v4/wallet/sub_account_transfers', 'sub_uid=7,8&limit=1000', '', get!.headers.Timestamp!),
    );
    expect(post!.headers['Content-Type']).toBe('application/json');
    expect(post!.headers.SIGN).toBe(
      expected(SECRET, 'POST', '/api/v4/wallet/sub_account_transfers', '', post!.body, post!.headers.Timestamp!),
    );
    expect(JSON.parse(post!.body)).toEqual(body);
    expect(get!.headers.Timestamp).toBe('1767225600');
  });
});
