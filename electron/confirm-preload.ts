import { contextBridge, ipcRenderer } from 'electron';
import { CONFIRM_CHANNEL_NAMES, CONFIRM_EVENT, wireConfirmChannel } from '../shared/confirm.ts';

// The confirmation window's preload: the confirmation channels only, never the main window's contract
// (and the main window's preload never exposes these).
const methods = Object.fromEntries(
  CONFIRM_CHANNEL_NAMES.map((name) => [name, (request: unknown) => ipcRenderer.invoke(wireConfirmChannel(name), request)]),
);

function onChanged(listener: () => void): () => void {
  const forward = (): void => listener();
  ipcRenderer.on(CONFIRM_EVENT, forward);
  return () => ipcRenderer.removeListener(CONFIRM_EVENT, forward);
}

contextBridge.exposeInMainWorld('confirmDesk', Object.freeze({ ...methods, onChanged }));
