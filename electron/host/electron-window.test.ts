import { describe, expect, it } from 'vitest';
import { createMainWindow, hardenContents, windowOptions } from './electron-window.ts';
import { FakeWebContents, fakeElectron } from './electron-fake.ts';

describe('the hardened Electron window', () => {
  it('isolates and sandboxes the renderer, without Node', () => {
    const prefs = windowOptions('/app/preload.cjs').webPreferences!;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/app/preload.cjs',
    });
  });

  it('denies every permission and sets a strict CSP on every response', async () => {
    const fake = fakeElectron();
    createMainWindow(fake.module as never, { preload: '/p.cjs', url: 'app://desk/index.html' });
    expect(fake.created[0]!.win.loaded).toBe('app://desk/index.html');
    expect(fake.created).toHaveLength(1);
    const granted: boolean[] = [];
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      fake.session.permissionRequest!({}, p, (g) => granted.push(g));
      expect(fake.session.permissionCheck!({}, p)).toBe(false);
    }
    expect(granted).toEqual([false, false, false, false, false]);
    let headers: Record<string, string[]> = {};
    fake.session.headers!({ responseHeaders: { 'Content-Type': ['text/html'] } }, (r) => {
      headers = r.responseHeaders;
    });
    const csp = headers['Content-Security-Policy']![0]!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(headers['Content-Type']).toEqual(['text/html']);
  });

  it('denies navigation (of the page and of any frame), redirects, webviews and new windows', () => {
    const contents = new FakeWebContents();
    hardenContents(contents as never);
    expect(contents.windowOpenHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(contents.emitPreventable('will-navigate', 'https://example.com')).toBe(true);
    expect(contents.emitPreventable('will-frame-navigate', { url: 'https://example.com', isMainFrame: false })).toBe(true);
    expect(contents.emitPreventable('will-redirect', 'https://example.com')).toBe(true);
    expect(contents.emitPreventable('will-attach-webview', {}, {})).toBe(true);
  });
});
