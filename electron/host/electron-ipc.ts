import type { IpcMainInvokeEvent } from 'electron';
import { CHANNEL_NAMES, wireChannel, wireEvent, type Reply } from '../../shared/ipc.ts';
import type { Core } from '../core/core.ts';

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, payload: unknown) => Promise<unknown>): void;
}

const UNTRUSTED: Reply<never> = {
  ok: false,
  error: { kind: 'invalid_request', message: "call refused: it did not come from the desk's own window" },
};

/**
 * Every contract channel is registered once; each message's sender is checked (the frame must be the
 * desk's own top-level page, served on the app:// scheme) before the core parses the payload.
 */
export function registerIpc(ipcMain: IpcMainLike, core: Core, isTrustedSender: (event: IpcMainInvokeEvent) => boolean): void {
  for (const name of CHANNEL_NAMES) {
    ipcMain.handle(wireChannel(name), async (event, payload) => {
      if (!isTrustedSender(event)) return UNTRUSTED;
      return core.invoke(name, payload);
    });
  }
}

/** The sender is trusted only when it is the main frame of our window showing our own index page (app://desk/index.html). */
export function trustedSender(indexUrl: string, windowContentsId: () => number | undefined) {
  return (event: IpcMainInvokeEvent): boolean => {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null) return false;
    if (event.sender.id !== windowContentsId()) return false;
    return frame.url.split('#')[0] === indexUrl;
  };
}

/** Core events go to our window only (never broadcast to other web contents). */
export function forwardEvents(core: Core, contents: { send(channel: string, payload: unknown): void; isDestroyed(): boolean }): () => void {
  return core.subscribe((event, payload) => {
    if (!contents.isDestroyed()) contents.send(wireEvent(event), payload);
  });
}
