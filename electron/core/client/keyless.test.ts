import { describe, expect, it, vi } from 'vitest';
import { TotalBalance } from '../../../shared/api/records.ts';
import { AuditorProfileError } from '../errors.ts';
import { ApiClient } from './client.ts';

// An auditor profile's client: no key, so nothing is signed, queued or sent, whatever asks it.

describe('a keyless client', () => {
  it('refuses every request before signing or sending it, naming the auditor profile', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const client = new ApiClient({
      baseUrl: 'http://127.0.0.1:9/api/v4',
      credentials: { key: '', secret: Buffer.alloc(0) },
      limitsOff: true,
      fetch,
      keyless: () => new AuditorProfileError(),
    });
    await expect(client.request({ method: 'GET', path: '/wallet/total_balance' }, TotalBalance)).rejects.toThrow(
      /^This is an auditor profile: it has no exchange key/,
    );
    await expect(client.exchange({ method: 'POST', path: '/withdrawals', body: { amount: '1' } })).rejects.toBeInstanceOf(
      AuditorProfileError,
    );
    await expect(client.syncClock()).rejects.toBeInstanceOf(AuditorProfileError);
    expect(fetch).not.toHaveBeenCalled();
    expect(client.requestCount).toBe(0);
  });
});
