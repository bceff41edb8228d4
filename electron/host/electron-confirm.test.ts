import { describe, expect, it, vi } from 'vitest';
import { CONFIRM_CHANNEL_NAMES, wireConfirmChannel } from '../../shared/confirm.ts';
import { CHANNEL_NAMES, wireChannel } from '../../shared/ipc.ts';
import type { ConfirmCore, Core } from '../core/core.ts';
import { registerIpc, trustedSender } from './electron-ipc.ts';
import { registerConfirmIpc, trustedConfirmSender } from './electron-confirm.ts';
import { fakeElectron, fakeEvent } from './electron-fake.ts';

// The adversary is a script in the main window: it can send any message its page's preload allows
// (the main contract), and could try the confirmation channels' wire names through a compromised preload.

const INDEX = 'file:///app/dist/renderer/index.html';
const CONFIRM = 'file:///app/dist/renderer/confirm.html';

function setup() {
  const fake = fakeElectron();
  const core: Core & ConfirmCore = {
    invoke: vi.fn(async () => ({ ok: true as const, data: 'main' })),
    subscribe: () => () => {},
    close: async () => {},
    invokeConfirm: vi.fn(async () => ({ ok: true as const, data: 'signed' })),
    subscribeConfirm: () => () => {},
  };
  registerIpc(
    fake.module.ipcMain,
    core,
    trustedSender(INDEX, () => 7),
  );
  registerConfirmIpc(
    fake.module.ipcMain,
    core,
    trustedConfirmSender(CONFIRM, () => 9),
  );
  return { fake, core };
}

describe("the confirmation window's channels under Electron", () => {
  it("are separate wire names from the main contract's, which has none of them", () => {
    const { fake } = setup();
    const main = new Set(CHANNEL_NAMES.map(wireChannel));
    for (const c of CONFIRM_CHANNEL_NAMES) {
      expect(main.has(wireConfirmChannel(c))).toBe(false);
      expect(fake.handlers.has(wireConfirmChannel(c))).toBe(true);
    }
  });

  it('refuse the main window, even with a valid payload, and answer only the confirmation page', async () => {
    const { fake, core } = setup();
    const sign = fake.handlers.get(wireConfirmChannel('confirmSign'))!;
    const payload = { ticket: 't', operator: 'o', passphrase: 'a passphrase!' };
    expect(await sign(fakeEvent({ senderId: 7, url: INDEX }), payload)).toMatchObject({ ok: false });
    expect(await sign(fakeEvent({ senderId: 9, url: INDEX }), payload)).toMatchObject({ ok: false });
    expect(await sign(fakeEvent({ senderId: 9, url: CONFIRM, subframe: true }), payload)).toMatchObject({ ok: false });
    expect(core.invokeConfirm).not.toHaveBeenCalled();
    expect(await sign(fakeEvent({ senderId: 9, url: CONFIRM }), payload)).toEqual({ ok: true, data: 'signed' });
    // And the confirmation page cannot drive the main contract either.
    expect(await fake.handlers.get(wireChannel('writeApprove'))!(fakeEvent({ senderId: 9, url: CONFIRM }), { id: 'x' })).toMatchObject({
      ok: false,
    });
    expect(core.invoke).not.toHaveBeenCalled();
  });
});
