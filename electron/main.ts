import { app, BrowserWindow, ipcMain, Notification, protocol, safeStorage, session } from 'electron';
import { join } from 'node:path';
import { openDesk } from './core/desk.ts';
import { createMainWindow, hardenContents } from './host/electron-window.ts';
import { forwardEvents, registerIpc, trustedSender } from './host/electron-ipc.ts';
import { APP_INDEX_URL, registerAppScheme, serveApp } from './host/electron-protocol.ts';
import { showNotifications } from './host/electron-notify.ts';

// Started by electron/start.ts, which runs the Sandbox and passes its credentials file.
const credentialsPath = process.env.TREASURY_DESK_SANDBOX_CREDENTIALS;
const here = import.meta.dirname;
const rendererDir = join(here, '..', 'renderer');

app.enableSandbox();
// Privileged schemes must be registered before the app is ready.
registerAppScheme(protocol);
// Every web contents, the main window's included, is hardened as it is created.
app.on('web-contents-created', (_e, contents) => hardenContents(contents));

void app.whenReady().then(() => {
  serveApp(protocol, rendererDir);
  // The same data folder as the web host: Electron's userData for productName "Treasury Desk".
  // Without a Sandbox (a packaged app today), the desk opens with the operator's stored profiles only.
  const core = openDesk({
    home: process.env.TREASURY_DESK_HOME ?? app.getPath('userData'),
    ...(credentialsPath ? { sandboxCredentialsPath: credentialsPath } : {}),
    safeStorage,
  });
  let windowId: number | undefined;
  registerIpc(ipcMain, core, trustedSender(APP_INDEX_URL, () => windowId));
  const win = createMainWindow({ BrowserWindow, session }, { preload: join(here, 'preload.cjs'), url: APP_INDEX_URL });
  windowId = win.webContents.id;
  forwardEvents(core, win.webContents);
  showNotifications(core, Notification);
  app.on('will-quit', () => void core.close());
});

app.on('window-all-closed', () => app.quit());
