import type { BrowserWindowConstructorOptions, IpcMainInvokeEvent, WebContents } from 'electron';
import { CONFIRM_CHANNEL_NAMES, CONFIRM_EVENT, wireConfirmChannel, type ConfirmReply } from '../../shared/confirm.ts';
import type { ConfirmCore } from '../core/core.ts';
import type { IpcMainLike } from './electron-ipc.ts';
import { trustedSender } from './electron-ipc.ts';
import { windowOptions } from './electron-window.ts';

// The confirmation window under Electron: the main process opens it itself, with its own page and
// preload; its channels answer only that window's main frame showing that page, so the main window
// (whose sender check names another page) can never call them.

const UNTRUSTED: ConfirmReply<never> = {
  ok: false,
  error: { kind: 'invalid_request', message: 'call refused: it did not come from the confirmation window' },
};

export function registerConfirmIpc(ipcMain: IpcMainLike, core: ConfirmCore, isTrusted: (event: IpcMainInvokeEvent) => boolean): void {
  for (const name of CONFIRM_CHANNEL_NAMES) {
    ipcMain.handle(wireConfirmChannel(name), async (event, payload) => (isTrusted(event) ? core.invokeConfirm(name, payload) : UNTRUSTED));
  }
}

export const trustedConfirmSender = trustedSender;

export function confirmWindowOptions(preload: string): BrowserWindowConstructorOptions {
  const base = windowOptions(preload);
  return { ...base, width: 720, height: 760, title: 'Treasury Desk: confirmation', alwaysOnTop: true };
}

interface ConfirmWindow {
  webContents: WebContents;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show' | 'closed', fn: () => void): unknown;
  show(): void;
  focus(): void;
  isDestroyed(): boolean;
}

/**
 * Opens (or brings forward) the confirmation window whenever the core says something waits for a
 * signature; returns the function that stops watching.
 */
export function watchConfirmations(core: ConfirmCore, open: () => ConfirmWindow, onContents: (id: number | undefined) => void): () => void {
  let win: ConfirmWindow | null = null;
  return core.subscribeConfirm(() => {
    if (win && !win.isDestroyed()) {
      win.webContents.send(CONFIRM_EVENT);
      win.focus();
      return;
    }
    win = open();
    onContents(win.webContents.id);
    win.once('ready-to-show', () => win?.show());
    win.once('closed', () => {
      win = null;
      onContents(undefined);
    });
  });
}
