import { describe, expect, it } from 'vitest';
import { bucketFor } from './rateLimits.ts';

describe('§8.2 sub-account management bucket', () => {
  it('paces every lock in one 80 / 10 s bucket, whichever sub-account it names', () => {
    const a = bucketFor('POST', '/sub_accounts/1001/lock');
    const b = bucketFor('POST', '/sub_accounts/2002/lock');
    expect(a.rule).toMatchObject({ id: 'sub_accounts', limit: 80, windowSec: 10, scope: 'uid' });
    expect(a.key).toBe(b.key);
    expect(bucketFor('POST', '/sub_accounts/1001/unlock').key).not.toBe(a.key);
  });

  it("gives a key's removal one bucket across keys and sub-accounts, apart from the keys list", () => {
    const del = bucketFor('DELETE', '/sub_accounts/1001/keys/abcdef0123456789');
    expect(del.key).toBe(bucketFor('DELETE', '/sub_accounts/2002/keys/ffff0000ffff0000').key);
    expect(del.key).not.toBe(bucketFor('GET', '/sub_accounts/1001/keys').key);
    expect(bucketFor('GET', '/sub_accounts/1001/keys').key).toBe(bucketFor('GET', '/sub_accounts/2/keys').key);
    expect(bucketFor('POST', '/sub_accounts').rule.id).toBe('sub_accounts');
  });
});
