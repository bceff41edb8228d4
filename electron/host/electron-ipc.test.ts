import { describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES, wireChannel } from '../../shared/ipc.ts';
import type { Core } from '../core/core.ts';
import { registerIpc, trustedSender } from './electron-ipc.ts';
import { fakeElectron, fakeEvent } from './fakeElectron.ts';

const INDEX = 'file:///app/dist/renderer/index.html';

function setup() {
  const fake = fakeElectron();
  const core: Core = { invoke: vi.fn(async () => ({ ok: true as const, data: 'answer' })) };
  registerIpc(fake.module.ipcMain as never, core, trustedSender(INDEX, () => 7));
  return { fake, core };
}

describe('Electron IPC host', () => {
  it('registers exactly one handler per contract channel', () => {
    const { fake } = setup();
    expect([...fake.handlers.keys()].sort()).toEqual(CHANNEL_NAMES.map(wireChannel).sort());
  });

  it('passes a message from the desk\'s own page to the core', async () => {
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
