import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, DeskErrorBody } from '../../shared/ipc.ts';
import { createCore, type Core } from './core.ts';

// Every channel takes at least 100 arbitrary payloads (10,000 in all): the core must answer each
// with a well-formed Reply — never throw, never crash — and every refusal must say what is wrong.
// The exchange behind it refuses everything, so that payloads that do parse never move anything.

const TOTAL = 10_000;
const perChannel = Math.max(100, Math.ceil(TOTAL / CHANNEL_NAMES.length));

let exchange: Server;
let core: Core;
const SECRET = '9'.repeat(64);

beforeAll(async () => {
  exchange = createServer((_req, res) => {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ label: 'INVALID_PARAM_VALUE', message: 'fuzz' }));
  });
  await new Promise<void>((r) => exchange.listen(0, '127.0.0.1', () => r()));
  const port = (exchange.address() as AddressInfo).port;
  core = createCore({
    profile: {
      name: 'Fuzz',
      environment: 'sandbox',
      baseUrl: `http://127.0.0.1:${port}/api/v4`,
      credentials: { key: 'fuzzkey0fuzzkey0', secret: SECRET },
      limitsOff: true,
    },
    log: () => {},
  });
});
afterAll(() => new Promise<void>((r) => exchange.close(() => r())));

const hostile = fc.oneof(
  fc.jsonValue(),
  fc.anything({ withBigInt: false, withMap: false, withSet: false, withTypedArray: false, withDate: true }),
  fc.dictionary(
    fc.constantFrom('currency', 'amount', 'id', '__proto__', 'constructor', 'name', 'key', 'secret', 'passphrase'),
    fc.jsonValue(),
  ),
  fc.constantFrom(null, undefined, '', 0, -1, NaN, Infinity, [], {}, '{"currency":"USDT"}', 'x'.repeat(100_000)),
);

describe('IPC fuzzing', () => {
  it.each(CHANNEL_NAMES)('channel %s answers every payload with a well-formed Reply', async (channel) => {
    await fc.assert(
      fc.asyncProperty(hostile, async (payload) => {
        const reply = await core.invoke(channel, payload);
        expect(typeof reply.ok).toBe('boolean');
        if (!reply.ok) {
          expect(DeskErrorBody.safeParse(reply.error).success).toBe(true);
          expect(reply.error.message.length).toBeGreaterThan(5);
        }
        expect(JSON.stringify(reply)).not.toContain(SECRET);
      }),
      { numRuns: perChannel },
    );
  });

  it('answers unknown channel names without running anything', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.jsonValue(), async (name, payload) => {
        fc.pre(!(CHANNEL_NAMES as string[]).includes(name));
        const reply = await core.invoke(name, payload);
        expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_request' } });
      }),
      { numRuns: 200 },
    );
  });
});
