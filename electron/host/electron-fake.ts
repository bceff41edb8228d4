import type { IpcMainInvokeEvent } from 'electron';

// A stand-in for the electron module in unit tests: it records what the desk asks of Electron, so
// the hardening and the IPC sender checks are tested where the Electron binary is absent.

type Listener = (...args: unknown[]) => unknown;

export class FakeWebContents {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  readonly listeners = new Map<string, Listener[]>();
  windowOpenHandler: ((d: unknown) => { action: string }) | undefined;
  readonly sent: { channel: string; payload: unknown }[] = [];
  destroyed = false;
  url = '';
  getURL() {
    return this.url;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  isDestroyed() {
    return this.destroyed;
  }
  on(event: string, fn: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
    return this;
  }
  setWindowOpenHandler(fn: (d: unknown) => { action: string }) {
    this.windowOpenHandler = fn;
  }
  /** Fires an event the way Electron would and tells whether some listener prevented it. */
  emitPreventable(event: string, ...args: unknown[]): boolean {
    let prevented = false;
    const e = {
      preventDefault: () => {
        prevented = true;
      },
    };
    for (const fn of this.listeners.get(event) ?? []) fn(e, ...args);
    return prevented;
  }
}

export function fakeElectron() {
  const created: { opts: unknown; win: FakeWindow }[] = [];
  class FakeWindow {
    readonly webContents = new FakeWebContents();
    loaded: string | undefined;
    loadOptions: { hash?: string } | undefined;
    maximized = false;
    bounds = { x: 10, y: 20, width: 1280, height: 860 };
    readonly listeners = new Map<string, () => void>();
    constructor(readonly opts: unknown) {
      created.push({ opts, win: this });
    }
    async loadURL(url: string) {
      this.loaded = url;
      this.webContents.url = url;
    }
    once(event: string, fn: () => void) {
      this.listeners.set(event, fn);
      return this;
    }
    on(event: string, fn: () => void) {
      this.listeners.set(event, fn);
      return this;
    }
    show() {}
    maximize() {
      this.maximized = true;
    }
    isMaximized() {
      return this.maximized;
    }
    getNormalBounds() {
      return this.bounds;
    }
  }
  const session = {
    permissionRequest: undefined as undefined | ((wc: unknown, p: string, cb: (g: boolean) => void) => void),
    permissionCheck: undefined as undefined | ((wc: unknown, p: string) => boolean),
    headers: undefined as
      | undefined
      | ((d: { responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void),
  };
  const handlers = new Map<string, (event: IpcMainInvokeEvent, payload: unknown) => Promise<unknown>>();
  const appListeners = new Map<string, Listener>();
  const exposed = new Map<string, unknown>();
  const invoked: { channel: string; payload: unknown }[] = [];
  const rendererListeners = new Map<string, Listener[]>();
  const syncListeners = new Map<string, Listener>();
  let ready!: () => void;
  let isReady = false;
  const whenReady = new Promise<void>((r) => {
    ready = () => {
      isReady = true;
      r();
    };
  });
  /** What the desk asked of Electron's protocol module, and whether the app was ready when it asked. */
  const protocol = {
    privileged: [] as Array<{ schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>; afterReady: boolean }>,
    handlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
  };
  const module = {
    app: {
      enableSandbox: () => {
        module.app.sandboxed = true;
      },
      sandboxed: false,
      on: (event: string, fn: Listener) => {
        appListeners.set(event, fn);
      },
      whenReady: () => whenReady,
      quits: 0,
      quit: () => {
        module.app.quits++;
      },
      home: '',
      getPath: () => {
        if (!module.app.home) throw new Error('tests set TREASURY_DESK_HOME');
        return module.app.home;
      },
      getVersion: () => '0.0.0-test',
    },
    // A desktop without a keyring: the vault falls back to a passphrase.
    safeStorage: {
      isEncryptionAvailable: () => false,
      encryptString: () => Buffer.alloc(0),
      decryptString: () => '',
      getSelectedStorageBackend: () => 'basic_text',
    },
    BrowserWindow: FakeWindow,
    // Desktop notifications, recorded.
    Notification: class {
      static shown: Array<{ title: string; body: string }> = [];
      static isSupported() {
        return true;
      }
      constructor(readonly o: { title: string; body: string }) {}
      show() {
        (this.constructor as unknown as { shown: unknown[] }).shown.push(this.o);
      }
      on() {
        return this;
      }
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>) => {
        protocol.privileged.push({ schemes, afterReady: isReady });
      },
      handle: (scheme: string, fn: (request: Request) => Response | Promise<Response>) => {
        protocol.handlers.set(scheme, fn);
      },
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: typeof session.permissionRequest) => {
          session.permissionRequest = fn;
        },
        setPermissionCheckHandler: (fn: typeof session.permissionCheck) => {
          session.permissionCheck = fn;
        },
        webRequest: {
          onHeadersReceived: (fn: typeof session.headers) => {
            session.headers = fn;
          },
        },
      },
    },
    ipcMain: {
      handle: (channel: string, fn: (event: IpcMainInvokeEvent, payload: unknown) => Promise<unknown>) => {
        handlers.set(channel, fn);
      },
      /** electron-store registers a listener for its renderer API, which the desk's renderer never gets. */
      on: (channel: string, fn: Listener) => {
        syncListeners.set(channel, fn);
      },
    },
    ipcRenderer: {
      invoke: async (channel: string, payload: unknown) => {
        invoked.push({ channel, payload });
        return { ok: true, data: null };
      },
      on: (channel: string, fn: Listener) => {
        rendererListeners.set(channel, [...(rendererListeners.get(channel) ?? []), fn]);
      },
      removeListener: (channel: string, fn: Listener) => {
        rendererListeners.set(
          channel,
          (rendererListeners.get(channel) ?? []).filter((f) => f !== fn),
        );
      },
    },
    contextBridge: {
      exposeInMainWorld: (name: string, api: unknown) => {
        exposed.set(name, api);
      },
    },
  };
  return {
    module,
    created,
    session,
    protocol,
    handlers,
    appListeners,
    exposed,
    invoked,
    rendererListeners,
    syncListeners,
    ready: () => ready(),
  };
}

export function fakeEvent(opts: { senderId: number; url: string; subframe?: boolean }): IpcMainInvokeEvent {
  return {
    sender: { id: opts.senderId },
    senderFrame: { url: opts.url, parent: opts.subframe ? {} : null },
  } as unknown as IpcMainInvokeEvent;
}
