import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCore, type Core } from './core.ts';
import { handlers } from './handlers.ts';

// A stand-in exchange that answers with a chosen status and body, to check how the core reports it.
let exchange: Server;
let answer: { status: number; body: string } = { status: 200, body: '{}' };
let core: Core;
const logs: string[] = [];
const SECRET = 'f'.repeat(64);

beforeAll(async () => {
  exchange = createServer((_req, res) => {
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(answer.body);
  });
  await new Promise<void>((r) => exchange.listen(0, '127.0.0.1', () => r()));
  const port = (exchange.address() as AddressInfo).port;
  core = createCore({
    profile: {
      name: 'Test',
      environment: 'sandbox',
      baseUrl: `http://127.0.0.1:${port}/api/v4`,
      credentials: { key: 'abcd1234abcd1234', secret: SECRET },
    },
    log: (l) => logs.push(l),
  });
});
afterAll(() => new Promise<void>((r) => exchange.close(() => r())));

describe('core.invoke', () => {
  it.each([
    ['an unknown channel', 'nope', {}, undefined],
    ['a wrong type', 'totalBalance', { currency: 7 }, ['currency']],
    ['a value outside the list', 'totalBalance', { currency: 'EUR' }, ['currency']],
    ['an unexpected field', 'totalBalance', { currency: 'USDT', extra: 1 }, undefined],
    ['a non-object', 'totalBalance', 'USDT', undefined],
  ])('answers %s with a clear invalid_request error', async (_name, channel, payload, path) => {
    const reply = await core.invoke(channel, payload);
    expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: expect.stringMatching(/^[A-Z].{5,}\.$/) } });
    if (!reply.ok) expect(reply.error.path).toEqual(path);
  });

  it('answers a refused request as structure: the sentence alone, the field path and the channel beside it', async () => {
    const reply = await core.invoke('totalBalance', { currency: 'EUR' });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_request', channel: 'totalBalance', path: ['currency'] } });
    if (reply.ok) return;
    // A sentence an operator reads as it is: capitalised, closed, and naming neither the channel nor the field path.
    expect(reply.error.message).toMatch(/^[A-Z].*\.$/);
    expect(reply.error.message).not.toMatch(/totalBalance|currency:/);
  });

  it("puts an input refusal's path beside its sentence", async () => {
    const reply = await core.invoke('writePrepare', {
      write: { kind: 'own_transfer', input: { currency: 'USDT', from: 'spot', to: 'futures', amount: '1.123456789' } },
    });
    expect(reply).toMatchObject({
      ok: false,
      error: { kind: 'invalid_request', channel: 'writePrepare', path: ['write', 'input', 'amount'] },
    });
    if (!reply.ok) expect(reply.error.message).toMatch(/^[A-Z][^:]*8 decimal places.*\.$/);
  });

  it('shows an exchange label with a sentence the operator can act on', async () => {
    answer = { status: 401, body: JSON.stringify({ label: 'INVALID_SIGNATURE', message: 'signature mismatch' }) };
    const reply = await core.invoke('totalBalance', {});
    expect(reply).toMatchObject({
      ok: false,
      error: { kind: 'exchange', label: 'INVALID_SIGNATURE', message: expect.stringMatching(/secret in Settings/) },
    });
  });

  it("words an unknown label plainly, with the label and the server's message beside it for Details", async () => {
    answer = { status: 400, body: JSON.stringify({ label: 'SOMETHING_NEW', message: 'a new rule' }) };
    const reply = await core.invoke('totalBalance', {});
    expect(reply).toEqual({
      ok: false,
      error: {
        kind: 'exchange',
        label: 'SOMETHING_NEW',
        message: 'The exchange refused the request. Its own reason is under Details.',
        detail: 'a new rule',
        channel: 'totalBalance',
      },
    });
  });

  it("refuses an answer that does not have the record's shape rather than showing it", async () => {
    answer = { status: 200, body: JSON.stringify({ total: { amount: 12.5, currency: 'USDT' }, details: {} }) };
    const reply = await core.invoke('totalBalance', {});
    expect(reply).toMatchObject({
      ok: false,
      error: {
        kind: 'exchange',
        message: expect.stringMatching(/^The exchange at .* gave an answer the desk could not read \(HTTP 200\)/),
        detail: expect.stringMatching(/GET \/wallet\/total_balance .*total\.amount is not valid/),
      },
    });
  });

  it("reports a local channel answering outside its contract as the desk's own bug, not the exchange's", async () => {
    const spy = vi.spyOn(handlers, 'settingsGet').mockResolvedValue({ idle_lock_minutes: 0, settle_seconds: 30 });
    try {
      const reply = await core.invoke('settingsGet', {});
      expect(reply).toMatchObject({
        ok: false,
        error: { kind: 'internal', channel: 'settingsGet', message: expect.stringMatching(/^The desk hit an internal error/) },
      });
      expect(logs.at(-1)).toMatch(/settingsGet answered outside its contract: idle_lock_minutes/);
    } finally {
      spy.mockRestore();
    }
  });

  it('never puts the secret in a reply or a log line', async () => {
    answer = { status: 500, body: 'oops' };
    const replies = [await core.invoke('totalBalance', {}), await core.invoke('profileCurrent', {})];
    expect(JSON.stringify(replies)).not.toContain(SECRET);
    expect(JSON.stringify(replies)).not.toContain('abcd1234abcd1234');
    expect(logs.join('\n')).not.toContain(SECRET);
  });
});
