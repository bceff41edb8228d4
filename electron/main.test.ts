import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES, wireChannel, wireEvent } from '../shared/ipc.ts';
import { CONFIRM_CHANNEL_NAMES, wireConfirmChannel } from '../shared/confirm.ts';
import { fakeElectron, fakeEvent, FakeWebContents } from './host/electron-fake.ts';

// main.ts and preload.ts run against a fake `electron` module: the wiring is checked where the
// Electron binary is absent.
const fake = vi.hoisted(() => ({ current: undefined as unknown as ReturnType<typeof fakeElectron> }));
vi.mock('electron', () => {
  const pick = (k: string) => (fake.current.module as Record<string, unknown>)[k];
  return {
    // electron-store reads the module as a default import.
    get default() {
      return fake.current.module;
    },
    get app() {
      return pick('app');
    },
    get BrowserWindow() {
      return pick('BrowserWindow');
    },
    get ipcMain() {
      return pick('ipcMain');
    },
    get session() {
      return pick('session');
    },
    get protocol() {
      return pick('protocol');
    },
    get ipcRenderer() {
      return pick('ipcRenderer');
    },
    get contextBridge() {
      return pick('contextBridge');
    },
    get safeStorage() {
      return pick('safeStorage');
    },
    get Notification() {
      return pick('Notification');
    },
  };
});

async function loadMain(dir = mkdtempSync(join(tmpdir(), 'desk-main-'))) {
  fake.current = fakeElectron();
  fake.current.module.app.home = join(dir, 'home');
  const creds = join(dir, 'credentials.json');
  const key = { uid: '1', key: 'k'.repeat(32), secret: 's'.repeat(64) };
  writeFileSync(
    creds,
    JSON.stringify({
      base_url: 'http://127.0.0.1:9/api/v4',
      admin_url: 'http://127.0.0.1:9/admin/v1',
      admin_token: 'a'.repeat(48),
      main: key,
      read_only: key,
      sub_accounts: [],
    }),
  );
  vi.stubEnv('TREASURY_DESK_SANDBOX_CREDENTIALS', creds);
  vi.stubEnv('TREASURY_DESK_HOME', join(dir, 'home'));
  vi.resetModules();
  await import('./main.ts');
  fake.current.ready();
  await new Promise((r) => setTimeout(r, 0));
  return fake.current;
}

describe('electron/main.ts', () => {
  it('sandboxes every renderer, hardens every web contents, opens one hardened window', async () => {
    const f = await loadMain();
    expect(f.module.app.sandboxed).toBe(true);
    const contents = new FakeWebContents();
    (f.appListeners.get('web-contents-created') as (e: unknown, c: unknown) => void)({}, contents);
    expect(contents.windowOpenHandler!({})).toEqual({ action: 'deny' });
    expect(contents.emitPreventable('will-navigate', 'https://example.com')).toBe(true);
    expect(contents.emitPreventable('will-frame-navigate', { url: 'https://example.com', isMainFrame: false })).toBe(true);
    expect(f.created).toHaveLength(1);
    expect(f.created[0]!.opts).toMatchObject({ webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false } });
    expect(f.session.permissionCheck!({}, 'media')).toBe(false);
  });

  it("answers only the window's own page, on every channel", async () => {
    const f = await loadMain();
    const win = f.created[0]!.win;
    // The main contract and, apart, the confirmation window's channels (electron/host/electron-confirm.ts).
    expect([...f.handlers.keys()].sort()).toEqual(
      [...CHANNEL_NAMES.map(wireChannel), ...CONFIRM_CHANNEL_NAMES.map(wireConfirmChannel)].sort(),
    );
    const index = win.loaded!;
    expect(index).toBe('app://desk/index.html');
    const signFromMain = await f.handlers.get(wireConfirmChannel('confirmSign'))!(fakeEvent({ senderId: win.webContents.id, url: index }), {
      ticket: 't',
      operator: 'o',
      passphrase: 'p',
    });
    expect(signFromMain).toMatchObject({ ok: false, error: { message: expect.stringMatching(/confirmation window/) } });
    const call = (senderId: number, url: string, subframe = false) =>
      f.handlers.get(wireChannel('profileCurrent'))!(fakeEvent({ senderId, url, subframe }), {});
    const own = await call(win.webContents.id, `${index}#/settings`);
    expect(own).toMatchObject({ ok: true, data: { name: 'Sandbox', environment: 'sandbox', key_masked: 'kkkk…kkkk' } });
    expect(JSON.stringify(own)).not.toContain('s'.repeat(64));
    expect(await call(win.webContents.id + 1, index)).toMatchObject({ ok: false });
    expect(await call(win.webContents.id, index, true)).toMatchObject({ ok: false });
    // The same page from file:// (as the desk loaded it before) or from another app:// host is not ours.
    const fileIndex = pathToFileURL(join(import.meta.dirname, '..', 'renderer', 'index.html')).href;
    for (const url of [fileIndex, 'app://other/index.html', 'app://desk/other.html', 'https://desk/index.html']) {
      expect(await call(win.webContents.id, url), url).toMatchObject({ ok: false });
    }
  });

  it('loads the window from app://, registered standard and secure before ready, serving only the build folder', async () => {
    const f = await loadMain();
    expect(f.protocol.privileged).toEqual([
      { schemes: [{ scheme: 'app', privileges: { standard: true, secure: true, codeCache: true } }], afterReady: false },
    ]);
    const serve = f.protocol.handlers.get('app')!;
    expect(serve).toBeDefined();
    const get = async (url: string) => {
      const res = await serve(new Request(url));
      return {
        status: res.status,
        csp: res.headers.get('content-security-policy'),
        type: res.headers.get('content-type'),
        body: await res.text(),
      };
    };
    const index = await get('app://desk/index.html');
    expect(index).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(index.body).toContain('<div id="root">');
    expect(index.csp).toContain("script-src 'self'");
    // Outside the build folder (the renderer's folder here), another host, a source map, a bad escape.
    for (const [url, status] of [
      ['app://desk/%2e%2e/electron/main.ts', 404],
      ['app://desk/..%2fpackage.json', 404],
      ['app://other/index.html', 404],
      ['app://desk/index.js.map', 404],
      ['app://desk/%E0%A4%A', 400],
    ] as const) {
      const r = await get(url);
      expect(r.status, url).toBe(status);
      expect(r.csp, url).toContain("default-src 'self'");
      expect(r.body).not.toMatch(/electron|"name": "treasury-desk"/);
    }
  });

  it('quits only once the core has closed', async () => {
    const f = await loadMain();
    const willQuit = f.appListeners.get('will-quit') as (e: { preventDefault(): void }) => void;
    let prevented = 0;
    willQuit({
      preventDefault: () => {
        prevented++;
      },
    });
    expect(prevented).toBe(1);
    expect(f.module.app.quits).toBe(0);
    await vi.waitFor(() => expect(f.module.app.quits).toBe(1));
    // The quit that follows the close goes through.
    willQuit({
      preventDefault: () => {
        prevented++;
      },
    });
    expect(prevented).toBe(1);
  });
});

describe('the window as the operator left it', () => {
  it('reopens with the bounds, maximized state and page it had when it closed (window.json, 0600)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-main-'));
    const first = await loadMain(dir);
    const win = first.created[0]!.win;
    expect(win.loaded).toBe('app://desk/index.html');
    win.bounds = { x: 40, y: 50, width: 1000, height: 700 };
    win.maximized = true;
    win.webContents.url += '#/activity';
    win.listeners.get('close')!();
    const file = join(dir, 'home', 'window.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = await loadMain(dir);
    const again = second.created[0]!.win;
    expect(again.opts).toMatchObject({ x: 40, y: 50, width: 1000, height: 700 });
    expect(again.loaded).toBe('app://desk/index.html#/activity');
    again.listeners.get('ready-to-show')!();
    expect(again.maximized).toBe(true);
  });

  it.each(['sub-accounts/12345', 'withdrawals?status=EXTPEND', 'withdrawals?currency=USDT&status=EXTPEND&search=0xab'])(
    'reopens at the deep link #/%s it showed, parameters included',
    async (route) => {
      const dir = mkdtempSync(join(tmpdir(), 'desk-main-'));
      const first = await loadMain(dir);
      first.created[0]!.win.webContents.url += `#/${route}`;
      first.created[0]!.win.listeners.get('close')!();
      const second = await loadMain(dir);
      expect(second.created[0]!.win.loaded).toBe(`app://desk/index.html#/${route}`);
    },
  );

  it('opens the default window over a window.json it cannot read, and leaves that file as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-main-'));
    mkdirSync(join(dir, 'home'), { recursive: true });
    writeFileSync(join(dir, 'home', 'window.json'), '{"window": {"bounds"');
    const f = await loadMain(dir);
    expect(f.created[0]!.win.opts).toMatchObject({ width: 1280, height: 860 });
    // Closing does not write over it either: the operator finds the file as it was, and the reason in the log.
    f.created[0]!.win.listeners.get('close')!();
    expect(readFileSync(join(dir, 'home', 'window.json'), 'utf8')).toBe('{"window": {"bounds"');
  });
});

describe('electron/confirm-preload.ts', () => {
  it("exposes the confirmation channels only, under another name than the main window's", async () => {
    fake.current = fakeElectron();
    vi.resetModules();
    await import('./confirm-preload.ts');
    const api = fake.current.exposed.get('confirmDesk') as Record<string, unknown>;
    expect([...fake.current.exposed.keys()]).toEqual(['confirmDesk']);
    expect(Object.keys(api).sort()).toEqual([...CONFIRM_CHANNEL_NAMES, 'onChanged'].sort());
    expect(Object.keys(api).some((k) => (CHANNEL_NAMES as string[]).includes(k))).toBe(false);
  });
});

describe('electron/preload.ts', () => {
  it('exposes one method per contract channel and never ipcRenderer itself', async () => {
    fake.current = fakeElectron();
    vi.resetModules();
    await import('./preload.ts');
    const desk = fake.current.exposed.get('desk') as Record<string, (r: unknown) => Promise<unknown>>;
    expect([...fake.current.exposed.keys()]).toEqual(['desk']);
    expect(Object.keys(desk).sort()).toEqual([...CHANNEL_NAMES, 'on'].sort());
    expect(Object.isFrozen(desk)).toBe(true);
    for (const value of Object.values(desk)) expect(typeof value).toBe('function');
    await desk.totalBalance!({ currency: 'BTC' });
    expect(fake.current.invoked).toEqual([{ channel: wireChannel('totalBalance'), payload: { currency: 'BTC' } }]);
    // Events: only contract events can be subscribed to, and unsubscribing removes the listener.
    const on = desk.on as unknown as (e: string, fn: (p: unknown) => void) => () => void;
    expect(() => on('desk:totalBalance', () => {})).toThrow(/unknown desk event/);
    const got: unknown[] = [];
    const off = on('rateLimits', (p) => got.push(p));
    for (const fn of fake.current.rendererListeners.get(wireEvent('rateLimits'))!) fn({}, { buckets: [] });
    expect(got).toEqual([{ buckets: [] }]);
    off();
    expect(fake.current.rendererListeners.get(wireEvent('rateLimits'))).toEqual([]);
  });
});
