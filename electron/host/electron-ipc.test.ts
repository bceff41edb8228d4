import { describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES, wireChannel, wireEvent } from '../../shared/ipc.ts';
import type { Core, EventListener } from '../core/core.ts';
import { forwardEvents, registerIpc, trustedSender } from './electron-ipc.ts';
import { fakeElectron, fakeEvent, FakeWebContents } from './electron-fake.ts';

const INDEX = 'file:///app/dist/renderer/index.html';

function setup() {
  const fake = fakeElectron();
  const core: Core = {
    invoke: vi.fn(async () => ({ ok: true as const, data: 'answer' })),
    subscribe: () => () => {},
    close: async () => {},
  };
  registerIpc(
    fake.module.ipcMain,
    core,
    trustedSender(INDEX, () => 7),
  );
  return { fake, core };
}

describe('Electron IPC host', () => {
  it('registers exactly one handler per contract channel', () => {
    const { fake } = setup();
    expect([...fake.handlers.keys()].sort()).toEqual(CHANNEL_NAMES.map(wireChannel).sort());
  });

  it("passes a message from the desk's own page to the core", async () => {
    const { fake, core } = setup();
    const reply = await fake.handlers.get(wireChannel('totalBalance'))!(fakeEvent({ senderId: 7, url: `${INDEX}#/` }), { currency: 'BTC' });
    expect(reply).toEqual({ ok: true, data: 'answer' });
    expect(core.invoke).toHaveBeenCalledWith('totalBalance', { currency: 'BTC' });
  });

  it.each([
    ['another web contents', { senderId: 8, url: INDEX }],
    ['a sub-frame', { senderId: 7, url: INDEX, subframe: true }],
    ['a remote page', { senderId: 7, url: 'https://evil.example/index.html' }],
    ['another local file', { senderId: 7, url: 'file:///tmp/other.html' }],
  ])('refuses a message from %s without running anything', async (_name, ev) => {
    const { fake, core } = setup();
    const reply = await fake.handlers.get(wireChannel('totalBalance'))!(fakeEvent(ev), {});
    expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_request' } });
    expect(core.invoke).not.toHaveBeenCalled();
  });
});

describe('Electron event forwarding', () => {
  it('sends core events to the desk window only, and stops when unsubscribed', () => {
    let listener: EventListener | undefined;
    const core: Core = {
      invoke: vi.fn(),
      subscribe: (l) => {
        listener = l;
        return () => {
          listener = undefined;
        };
      },
      close: async () => {},
    };
    const contents = new FakeWebContents();
    const stop = forwardEvents(core, contents);
    const payload = {
      buckets: [
        {
          key: 'wallet_80:GET /wallet/total_balance',
          queued: 3,
          in_flight: 0,
          used: 80,
          remaining: 0,
          limit: 80,
          window_sec: 10,
          paused_until_ms: null,
          pause_reason: null,
        },
      ],
    };
    listener!('rateLimits', payload);
    expect(contents.sent).toEqual([{ channel: wireEvent('rateLimits'), payload }]);
    contents.destroyed = true;
    listener!('rateLimits', payload);
    expect(contents.sent).toHaveLength(1);
    stop();
    expect(listener).toBeUndefined();
  });
});
