import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wireChannel, type Reply } from '../../shared/ipc.ts';
import { createCore, type Core } from '../core/core.ts';
import { sandboxProfile } from '../core/profiles/sandbox.ts';
import { registerIpc, trustedSender } from './electron-ipc.ts';
import { fakeElectron, fakeEvent } from './electron-fake.ts';
import { startWebHost, type WebHost } from './web.ts';
import { useSandbox } from '../core/testkit/sandbox.ts';

// The same contract tests run through both hosts, with a real core over a real Sandbox: the Electron
// host through a fake electron module (the binary is absent here), the web host over loopback HTTP.

const INDEX = 'file:///app/index.html';

interface Driver {
  call(channel: string, payload: unknown): Promise<Reply<unknown>>;
  callAsStranger(channel: string, payload: unknown): Promise<Reply<unknown>>;
}

let core: Core;
let web: WebHost;

const sb = useSandbox('desk-parity');
beforeAll(async () => {
  core = createCore({ profile: sandboxProfile(sb.credentialsPath), log: () => {} });
  web = await startWebHost({ core, staticDir: sb.dir });
});
afterAll(async () => {
  await web?.close();
});

function webDriver(): Driver {
  const post = (token: string) => async (channel: string, payload: unknown) => {
    const res = await fetch(`${web.origin}/rpc/${channel}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(payload),
    });
    return (await res.json()) as Reply<unknown>;
  };
  return { call: post(web.token), callAsStranger: post('not-the-token') };
}

function electronDriver(): Driver {
  const fake = fakeElectron();
  registerIpc(
    fake.module.ipcMain,
    core,
    trustedSender(INDEX, () => 1),
  );
  const send = (senderId: number) => async (channel: string, payload: unknown) => {
    const handler = fake.handlers.get(wireChannel(channel as never));
    if (!handler) return { ok: false, error: { kind: 'invalid_request', message: `no handler for ${channel}` } } as Reply<unknown>;
    return (await handler(fakeEvent({ senderId, url: INDEX }), payload)) as Reply<unknown>;
  };
  return { call: send(1), callAsStranger: send(2) };
}

describe.each([
  ['web host', webDriver],
  ['Electron host', electronDriver],
])('%s', (_name, make) => {
  let d: Driver;
  beforeAll(() => {
    d = make();
  });

  it('answers the total balance from the Sandbox', async () => {
    const r = await d.call('totalBalance', { currency: 'USDT' });
    expect(r.ok).toBe(true);
    if (r.ok) expect((r.data as { total: { currency: string } }).total.currency).toBe('USDT');
  });

  it('names the field of a payload that does not parse', async () => {
    const r = await d.call('totalBalance', { currency: 'EUR' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_request', path: ['currency'], channel: 'totalBalance' } });
    // The core's own body, unchanged by the host: the sentence alone, the field and channel beside it.
    expect(r).toEqual(await core.invoke('totalBalance', { currency: 'EUR' }));
    if (!r.ok) expect(r.error.message).not.toMatch(/totalBalance|currency:/);
  });

  it('reports the built-in Sandbox profile with a masked key only', async () => {
    const r = await d.call('profileCurrent', {});
    expect(r).toMatchObject({ ok: true, data: { environment: 'sandbox', built_in: true } });
    if (r.ok) expect((r.data as { key_masked: string }).key_masked).toMatch(/^.{4}….{4}$/);
  });

  it('refuses a caller that is not the desk, before the core runs', async () => {
    const r = await d.callAsStranger('totalBalance', { currency: 'USDT' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_request' } });
  });
});
