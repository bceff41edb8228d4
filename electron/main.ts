import { app, BrowserWindow, ipcMain, Notification, protocol, safeStorage, session, utilityProcess } from 'electron';
import { join } from 'node:path';
import { coolingOffFromEnv, openDesk } from './core/desk.ts';
import { deskStateDir } from './core/paths.ts';
import { createMainWindow, hardenContents } from './host/electron-window.ts';
import { forwardEvents, registerIpc, trustedSender } from './host/electron-ipc.ts';
import { APP_CONFIRM_URL, APP_INDEX_URL, registerAppScheme, serveApp } from './host/electron-protocol.ts';
import { showNotifications } from './host/electron-notify.ts';
import { windowStateStore } from './host/windowState.ts';
import { confirmWindowOptions, registerConfirmIpc, trustedConfirmSender, watchConfirmations } from './host/electron-confirm.ts';
import type { Core } from './core/core.ts';
import { superviseWith, type SupervisedSandbox } from './sandbox-process.ts';
import { utilitySpawner, type UtilityForkLike } from './sandbox-utility.ts';

// Started by electron/start.ts, which runs the Sandbox and passes its credentials file; started as an
// installed app, it runs the Sandbox itself (in a utility process) with its data in the desk's folder.
const startedCredentials = process.env.TREASURY_DESK_SANDBOX_CREDENTIALS;
const here = import.meta.dirname;
const rendererDir = join(here, '..', 'renderer');

app.enableSandbox();
// Privileged schemes must be registered before the app is ready.
registerAppScheme(protocol);
// Every web contents, the main window's included, is hardened as it is created.
app.on('web-contents-created', (_e, contents) => hardenContents(contents));

/** The installed app's own Sandbox, supervised as `npm start` supervises it; null when it could not start. */
async function ownSandbox(home: string, core: () => Core | undefined): Promise<SupervisedSandbox | null> {
  try {
    return await superviseWith(
      utilitySpawner(utilityProcess as unknown as UtilityForkLike, join(here, '..', 'sandbox', 'main.mjs'), process.env),
      {
        dataDir: join(home, 'sandbox'),
        onOutput: (line) => process.stderr.write(`[sandbox] ${line}\n`),
        onDown: () => core()?.reportSandbox?.('down'),
        onRestarted: () => core()?.reportSandbox?.('restarted'),
        onGiveUp: (e) => process.stderr.write(`[sandbox] could not be kept running: ${e.message}\n`),
      },
    );
  } catch (e) {
    // The desk still opens, with the operator's stored profiles: a Sandbox is for rehearsal only.
    process.stderr.write(`[sandbox] did not start: ${(e as Error).message}\n`);
    return null;
  }
}

void app.whenReady().then(async () => {
  serveApp(protocol, rendererDir);
  // The same data folder as the web host: Electron's userData for productName "Treasury Desk".
  const home = process.env.TREASURY_DESK_HOME ?? app.getPath('userData');
  // An installed app carries better-sqlite3 built for its own Electron (scripts/dist.ts): the desk and its
  // Sandbox load that copy (shared/sqliteBinding.ts); `npm start` names its own copy in the environment.
  if (app.isPackaged && !process.env.TREASURY_DESK_SQLITE_BINDING)
    process.env.TREASURY_DESK_SQLITE_BINDING = join(process.resourcesPath, 'native', 'better_sqlite3.node');
  let opened: Core | undefined;
  const sandbox = startedCredentials ? null : await ownSandbox(home, () => opened);
  const credentialsPath = startedCredentials ?? sandbox?.credentialsPath;
  const core = openDesk({
    home,
    // The anchors beside the data folder, the same place the web host uses for the same home.
    stateDir: deskStateDir(home),
    ...(credentialsPath ? { sandboxCredentialsPath: credentialsPath } : {}),
    safeStorage,
    coolingOffMs: coolingOffFromEnv(),
  });
  opened = core;
  let windowId: number | undefined;
  registerIpc(
    ipcMain,
    core,
    trustedSender(APP_INDEX_URL, () => windowId),
  );
  const win = createMainWindow(
    { BrowserWindow, session },
    { preload: join(here, 'preload.cjs'), url: APP_INDEX_URL },
    windowStateStore(home),
  );
  windowId = win.webContents.id;
  forwardEvents(core, win.webContents);
  // The confirmation window: its own page (app://desk/confirm.html), preload and sender check.
  let confirmId: number | undefined;
  registerConfirmIpc(
    ipcMain,
    core,
    trustedConfirmSender(APP_CONFIRM_URL, () => confirmId),
  );
  watchConfirmations(
    core,
    () => {
      const w = new BrowserWindow(confirmWindowOptions(join(here, 'confirm-preload.cjs')));
      void w.loadURL(APP_CONFIRM_URL);
      return w;
    },
    (id) => (confirmId = id),
  );
  showNotifications(core, Notification);
  // `npm start` supervises the Sandbox and tells this process when it stopped or came back.
  process.on('message', (m: unknown) => {
    const state = (m as { sandbox?: unknown } | null)?.sandbox;
    if (state === 'down' || state === 'restarted') core.reportSandbox?.(state);
  });
  // Quitting waits for the core (writes in progress reach their journal and the files close), then stops
  // the app's own Sandbox.
  let coreClosed = false;
  app.on('will-quit', (event) => {
    if (coreClosed) return;
    event.preventDefault();
    void core
      .close()
      .catch(() => {})
      .then(() => sandbox?.stop())
      .catch(() => {})
      .finally(() => {
        coreClosed = true;
        app.quit();
      });
  });
});

app.on('window-all-closed', () => app.quit());
