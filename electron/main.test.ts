import { mkdtempSync, writeFileSync } from 'node:fs';
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
    get app() { return pick('app'); },
    get BrowserWindow() { return pick('BrowserWindow'); },
    get ipcMain() { return pick('ipcMain'); },
    get session() { return pick('session'); },
    get ipcRenderer() { return pick('ipcRenderer'); },
    get contextBridge() { return pick('contextBridge'); },
    get safeStorage() { return pick('safeStorage'); },
  };
});

async function loadMain() {
  fake.current = fakeElectron();
  const dir = mkdtempSync(join(tmpdir(), 'desk-main-'));
  const creds = join(dir, 'credentials.json');
  writeFileSync(creds, JSON.stringify({ base_url: 'http://127.0.0.1:9/api/v4', main: { uid: '1', key: 'k'.repeat(32), secret: 's'.repeat(64) } }));
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
    expect(f.created).toHaveLength(1);
    expect(f.created[0]!.opts).toMatchObject({ webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false } });
    expect(f.session.permissionCheck!({}, 'media')).toBe(false);
  });

  it('answers only the window\'s own page, on every channel', async () => {
    const f = await loadMain();
    const win = f.created[0]!.win;
    // The main contract and, apart, the confirmation window's channels (electron/host/electron-confirm.ts).
    expect([...f.handlers.keys()].sort()).toEqual([...CHANNEL_NAMES.map(wireChannel), ...CONFIRM_CHANNEL_NAMES.map(wireConfirmChannel)].sort());
    const index = pathToFileURL(win.loaded!).href;
    const signFromMain = await f.handlers.get(wireConfirmChannel('confirmSign'))!(fakeEvent({ senderId: win.webContents.id, url: index }), { ticket: 't', operator: 'o', passphrase: 'p' });
    expect(signFromMain).toMatchObject({ ok: false, error: { message: expect.stringMatching(/confirmation window/) } });
    const own = await f.handlers.get(wireChannel('profileCurrent'))!(fakeEvent({ senderId: win.webContents.id, url: index }), {});
    expect(own).toMatchObject({ ok: true, data: { name: 'Sandbox', environment: 'sandbox', key_masked: 'kkkk…kkkk' } });
    expect(JSON.stringify(own)).not.toContain('s'.repeat(64));
    const foreign = await f.handlers.get(wireChannel('profileCurrent'))!(fakeEvent({ senderId: win.webContents.id + 1, url: index }), {});
    expect(foreign).toMatchObject({ ok: false });
  });
});

describe('electron/confirm-preload.ts', () => {
  it('exposes the confirmation channels only, under another name than the main window\'s', async () => {
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
