import { app, BrowserWindow, ipcMain, safeStorage, session } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { coolingOffFromEnv, openDesk } from './core/desk.ts';
import { createMainWindow, hardenContents } from './host/electron-window.ts';
import { forwardEvents, registerIpc, trustedSender } from './host/electron-ipc.ts';
import { confirmWindowOptions, registerConfirmIpc, trustedConfirmSender, watchConfirmations } from './host/electron-confirm.ts';

// Started by electron/start.ts, which runs the Sandbox and passes its credentials file.
const credentialsPath = process.env.TREASURY_DESK_SANDBOX_CREDENTIALS;
const here = import.meta.dirname;
const rendererIndex = join(here, '..', 'renderer', 'index.html');
const confirmPage = join(here, '..', 'renderer', 'confirm.html');

app.enableSandbox();
// Every web contents, the main window's included, is hardened as it is created.
app.on('web-contents-created', (_e, contents) => hardenContents(contents));

void app.whenReady().then(() => {
  // The same data folder as the web host: Electron's userData for productName "Treasury Desk".
  // Without a Sandbox (a packaged app today), the desk opens with the operator's stored profiles only.
  const core = openDesk({
    home: process.env.TREASURY_DESK_HOME ?? app.getPath('userData'),
    ...(credentialsPath ? { sandboxCredentialsPath: credentialsPath } : {}),
    safeStorage,
    coolingOffMs: coolingOffFromEnv(),
  });
  let windowId: number | undefined;
  registerIpc(ipcMain, core, trustedSender(pathToFileURL(rendererIndex).href, () => windowId));
  const win = createMainWindow({ BrowserWindow, session }, { preload: join(here, 'preload.cjs'), index: rendererIndex });
  windowId = win.webContents.id;
  forwardEvents(core, win.webContents);
  let confirmId: number | undefined;
  registerConfirmIpc(ipcMain, core, trustedConfirmSender(pathToFileURL(confirmPage).href, () => confirmId));
  watchConfirmations(core, () => {
    const w = new BrowserWindow(confirmWindowOptions(join(here, 'confirm-preload.cjs')));
    void w.loadFile(confirmPage);
    return w;
  }, (id) => (confirmId = id));
  app.on('will-quit', () => void core.close());
});

app.on('window-all-closed', () => app.quit());
