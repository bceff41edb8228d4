import { contextBridge, ipcRenderer } from 'electron';
import { CHANNEL_NAMES, wireChannel, type DeskApi } from '../shared/ipc.ts';

// One method per contract channel; the renderer never gets ipcRenderer itself.
const desk = Object.fromEntries(
  CHANNEL_NAMES.map((name) => [name, (request: unknown) => ipcRenderer.invoke(wireChannel(name), request)]),
) as DeskApi;

contextBridge.exposeInMainWorld('desk', Object.freeze(desk));
