import { app, BrowserWindow, ipcMain, safeStorage, session } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDesk } from './core/desk.ts';
import { createMainWindow, hardenContents } from './host/electron-window.ts';
import { forwardEvents, registerIpc, trustedSender } from './host/electron-ipc.ts';
import { windowStateStore } from './host/windowState.ts';

// Started by electron/start.ts, which runs the Sandbox and passes its credentials file.
const credentialsPath = process.env.TREASURY_DESK_SANDBOX_CREDENTIALS;
const here = import.meta.dirname;
const rendererIndex = join(here, '..', 'renderer', 'index.html');

app.enableSandbox();
// Every web contents, the main window's included, is hardened as it is created.
app.on('web-contents-created', (_e, contents) => hardenContents(contents));

void app.whenReady().then(() => {
  // The same data folder as the web host: Electron's userData for productName "Treasury Desk".
  // Without a Sandbox (a packaged app today), the desk opens with the operator's stored profiles only.
  const home = process.env.TREASURY_DESK_HOME ?? app.getPath('userData');
  const core = openDesk({
    home,
    ...(credentialsPath ? { sandboxCredentialsPath: credentialsPath } : {}),
    safeStorage,
  });
  let windowId: number | undefined;
  registerIpc(ipcMain, core, trustedSender(pathToFileURL(rendererIndex).href, () => windowId));
  const win = createMainWindow({ BrowserWindow, session }, { preload: join(here, 'preload.cjs'), index: rendererIndex }, windowStateStore(home));
  windowId = win.webContents.id;
  forwardEvents(core, win.webContents);
  // Quitting waits for the core: writes in progress reach their journal and the files close.
  let coreClosed = false;
  app.on('will-quit', (event) => {
    if (coreClosed) return;
    event.preventDefault();
    void core.close().catch(() => {}).finally(() => {
      coreClosed = true;
      app.quit();
    });
  });
});

app.on('window-all-closed', () => app.quit());
