import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from './core.ts';
import { recordingExchange, type RecordingExchange } from './testkit/recordingExchange.ts';

// A script in the window asks for a write of an absurd amount: refused by the shared schema with a
// clear message, before anything is journaled or sent.

let dir: string;
let exchange: RecordingExchange;
let core: Core;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-amounts-'));
  exchange = await recordingExchange();
  core = createCore({
    dataDir: dir,
    profile: {
      name: 'Sandbox',
      environment: 'sandbox',
      baseUrl: exchange.baseUrl,
      credentials: { key: 'amountkey0000000', secret: 'a'.repeat(32) },
      limitsOff: true,
    },
    log: () => {},
  });
});
afterAll(async () => {
  await core.close();
  await exchange.close();
  rmSync(dir, { recursive: true, force: true });
});

const huge = '9'.repeat(900_000);
const writes = [
  { kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: huge } },
  { kind: 'main_sub_transfer', input: { sub_account: '10001', currency: 'USDT', amount: huge, direction: 'to' } },
  { kind: 'own_transfer', input: { currency: 'USDT', from: 'spot', to: 'futures', amount: `1.${'0'.repeat(900_000)}1` } },
  {
    kind: 'sub_to_sub_transfer',
    input: {
      currency: 'USDT',
      sub_account_from: '1',
      sub_account_from_type: 'spot',
      sub_account_to: '2',
      sub_account_to_type: 'spot',
      amount: '1'.repeat(21),
    },
  },
  { kind: 'uid_transfer', input: { receive_uid: '12345', currency: 'USDT', amount: huge } },
];

describe('amount bounds at the channel', () => {
  it.each(writes.map((w) => [w.kind, w] as const))(
    'refuses a %s of an unbounded amount, journals and sends nothing',
    async (_kind, write) => {
      const r = await core.invoke('writePrepare', { write });
      expect(r).toMatchObject({
        ok: false,
        error: {
          kind: 'invalid_request',
          path: ['write', 'input', 'amount'],
          message: expect.stringMatching(/^Amount has more than (20 digits before the decimal point|8 decimal places)\.$/),
        },
      });
      expect(JSON.stringify(r).length).toBeLessThan(2000);
      expect(await core.invoke('intentsList', {})).toEqual({ ok: true, data: { items: [], next: null } });
      expect(exchange.signed()).toEqual([]);
    },
  );
});
