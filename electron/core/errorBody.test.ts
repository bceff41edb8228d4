import { describe, expect, it } from 'vitest';
import { LABEL_SENTENCES } from '../../shared/api/labels.ts';
import { toErrorBody } from './errorBody.ts';
import { ExchangeError, NetworkError } from './errors.ts';

// The body the window shows: a sentence in `message`; the label and the raw text beside it, for "Details".

const failed = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });

describe('toErrorBody', () => {
  it("gives an exchange refusal the label's words; the exchange's own message goes to detail", () => {
    const body = toErrorBody(new ExchangeError(401, 'IP_FORBIDDEN', 'ip 10.1.2.3 not in whitelist'), 'balancesRefresh');
    expect(body).toMatchObject({ kind: 'exchange', label: 'IP_FORBIDDEN', message: LABEL_SENTENCES.IP_FORBIDDEN });
    expect(body.detail).toBe('ip 10.1.2.3 not in whitelist');
    const unknown = toErrorBody(new ExchangeError(400, 'SOMETHING_NEW', 'raw text'));
    expect(unknown.message).not.toMatch(/SOMETHING_NEW|raw text/);
  });

  it('puts connection failures in words naming the host, with the request and the code in detail', () => {
    const origin = 'https://api.example.test';
    const cases: Array<[NetworkError, RegExp]> = [
      [
        new NetworkError(`GET /wallet/total_balance at ${origin}: the connection failed (ENOTFOUND)`, failed('ENOTFOUND'), { origin }),
        /^The exchange could not be reached at api\.example\.test: no such host was found\./,
      ],
      [
        new NetworkError(`GET /spot/time at ${origin}: the connection failed (ECONNREFUSED)`, failed('ECONNREFUSED'), { origin }),
        /^The exchange could not be reached at api\.example\.test: nothing answered there\./,
      ],
      [
        new NetworkError(`GET /spot/time at ${origin}: no answer within 15000 ms`, undefined, { origin, timedOut: true }),
        /^The exchange at api\.example\.test did not answer in time\./,
      ],
    ];
    for (const [error, words] of cases) {
      const body = toErrorBody(error, 'profilesTest');
      expect(body.kind).toBe('network');
      expect(body.message).toMatch(words);
      expect(body.message).not.toMatch(/ENOTFOUND|ECONNREFUSED|GET |\/wallet|\/spot|15000/);
      expect(body.detail).toBe(error.message);
    }
  });
});
