import type { BrowserWindowConstructorOptions, Event, HandlerDetails, WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from './csp.ts';
import type { WindowState, WindowStateStore } from './windowState.ts';
import { routeOf } from './windowRoute.ts';

// The hardened window (Electron security checklist): isolated, sandboxed renderer without Node,
// a strict CSP on every response, navigation and new windows denied, every permission denied.
// It takes the electron module as an argument so that tests can hand it a fake one.

export interface WindowElectron {
  BrowserWindow: new (opts: BrowserWindowConstructorOptions) => {
    webContents: WebContents;
    loadURL(url: string): Promise<void>;
    once(event: 'ready-to-show', fn: () => void): unknown;
    on(event: 'close', fn: () => void): unknown;
    show(): void;
    maximize(): void;
    isMaximized(): boolean;
    getNormalBounds(): { x: number; y: number; width: number; height: number };
  };
  session: {
    defaultSession: {
      setPermissionRequestHandler(fn: ((wc: WebContents, permission: string, cb: (granted: boolean) => void) => void) | null): void;
      setPermissionCheckHandler(fn: ((wc: WebContents | null, permission: string) => boolean) | null): void;
      webRequest: {
        onHeadersReceived(
          fn: (
            details: { responseHeaders?: Record<string, string[]> },
            cb: (r: { responseHeaders: Record<string, string[]> }) => void,
          ) => void,
        ): void;
      };
    };
  };
}

export function windowOptions(preloadPath: string, state: WindowState = { maximized: false }): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 860,
    ...state.bounds,
    show: false,
    title: 'Treasury Desk',
    backgroundColor: '#0f172a',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

export function hardenSession(electron: WindowElectron): void {
  const ses = electron.session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, cb) => cb(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, cb) => {
    cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

/** Navigation away from the app (of the page or of any frame in it) and every new window are refused. */
export function hardenContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>): void {
  contents.setWindowOpenHandler((_details: HandlerDetails) => ({ action: 'deny' }));
  contents.on('will-navigate', (event: Event) => event.preventDefault());
  contents.on('will-frame-navigate', (event: Event) => event.preventDefault());
  contents.on('will-redirect', (event: Event) => event.preventDefault());
  contents.on('will-attach-webview', (event: Event) => event.preventDefault());
}

/**
 * Opens the window where the operator left it (bounds, maximized, page) and keeps that when it closes.
 * `url` is the app's index on the app:// scheme (electron-protocol.ts), never a file:// address.
 */
export function createMainWindow(electron: WindowElectron, where: { preload: string; url: string }, state?: WindowStateStore) {
  hardenSession(electron);
  const last = state?.load() ?? { maximized: false };
  const win = new electron.BrowserWindow(windowOptions(where.preload, last));
  win.once('ready-to-show', () => {
    if (last.maximized) win.maximize();
    win.show();
  });
  win.on('close', () =>
    state?.save({ bounds: win.getNormalBounds(), maximized: win.isMaximized(), route: routeOf(win.webContents.getURL()) }),
  );
  void win.loadURL(last.route ? `${where.url}#/${last.route}` : where.url);
  return win;
}
