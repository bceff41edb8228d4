import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { wireChannel, wireEvent, type DeskTransport } from '../shared/ipc.ts';
import { deskApiOver, isEventName } from '../shared/ipcNames.ts';

// One method per contract channel and one `on` for contract events; the renderer never gets
// ipcRenderer itself, nor a way to name an arbitrary channel.
const transport = {
  invoke: (name, request) => ipcRenderer.invoke(wireChannel(name), request),
  on(event, listener) {
    // The page is not trusted to keep to the types: the name is checked at run time too.
    if (!isEventName(event)) throw new Error(`unknown desk event: ${String(event).slice(0, 64)}`);
    const forward = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(wireEvent(event), forward);
    return () => ipcRenderer.removeListener(wireEvent(event), forward);
  },
} satisfies DeskTransport;

contextBridge.exposeInMainWorld('desk', Object.freeze(deskApiOver(transport)));
