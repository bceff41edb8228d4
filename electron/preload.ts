import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNEL_NAMES, isEventName, wireChannel, wireEvent, type DeskApi } from '../shared/ipc.ts';

// One method per contract channel and one `on` for contract events; the renderer never gets
// ipcRenderer itself, nor a way to name an arbitrary channel.
const methods = Object.fromEntries(
  CHANNEL_NAMES.map((name) => [name, (request: unknown) => ipcRenderer.invoke(wireChannel(name), request)]),
);

function on(event: string, listener: (payload: unknown) => void): () => void {
  if (!isEventName(event)) throw new Error(`unknown desk event: ${String(event).slice(0, 64)}`);
  const forward = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(wireEvent(event), forward);
  return () => ipcRenderer.removeListener(wireEvent(event), forward);
}

contextBridge.exposeInMainWorld('desk', Object.freeze({ ...methods, on }) as DeskApi);
