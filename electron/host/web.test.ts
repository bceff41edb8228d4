import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core, EventListener } from '../core/core.ts';
import { startWebHost, type WebHost } from './web.ts';

function raw(host: WebHost, opts: { method: string; path: string; headers?: Record<string, string>; body?: string }) {
  const url = new URL(host.origin);
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: opts.method, path: opts.path, headers: opts.headers, agent: false },
      (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('web host', () => {
  let host: WebHost;
  const listeners = new Set<EventListener>();
  const core: Core = {
    invoke: vi.fn(async (channel, payload) => ({ ok: true as const, data: { channel, payload } })),
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => {},
  };
  const call = (channel: string, body: string, headers: Record<string, string> = {}) =>
    raw(host, {
      method: 'POST',
      path: `/rpc/${channel}`,
      body,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}`, ...headers },
    });

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-web-'));
    const app = join(dir, 'app');
    mkdirSync(join(app, 'assets'), { recursive: true });
    writeFileSync(join(app, 'index.html'), '<!doctype html><title>desk</title>');
    writeFileSync(join(app, 'assets', 'main.js'), 'console.log(1)');
    writeFileSync(join(app, 'assets', 'main.js.map'), '{"sources":["SOURCE-OF-THE-DESK"]}');
    // A file outside the build folder, and a symlink inside it that points there.
    writeFileSync(join(dir, 'outside.txt'), 'OUTSIDE-THE-APP');
    symlinkSync(join(dir, 'outside.txt'), join(app, 'assets', 'escape.txt'));
    symlinkSync(dir, join(app, 'up'));
    host = await startWebHost({ core, staticDir: app });
  });
  afterAll(() => host.close());

  it('listens on 127.0.0.1 with a random port and a long random token in the fragment', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/#token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(40);
  });

  it('serves the app with a strict CSP', async () => {
    const r = await raw(host, { method: 'GET', path: '/' });
    expect(r.status).toBe(200);
    expect(r.body).toContain('<title>desk</title>');
    expect(String(r.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('passes a call with the token to the core', async () => {
    const r = await call('totalBalance', '{"currency":"BTC"}');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ ok: true, data: { channel: 'totalBalance', payload: { currency: 'BTC' } } });
  });

  it.each([
    ['no token', { Authorization: '' }, 401],
    ['a wrong token', { Authorization: 'Bearer nope' }, 401],
    ['the token without "Bearer "', { Authorization: '__TOKEN__' }, 401],
    ['the token under another scheme', { Authorization: 'Basic __TOKEN__' }, 401],
    ['the token with a lower-case scheme', { Authorization: 'bearer __TOKEN__' }, 401],
    ['another origin', { Origin: 'http://evil.example' }, 403],
    ['a rebinding Host header', { Host: 'evil.example' }, 421],
    ['a form content type', { 'Content-Type': 'application/x-www-form-urlencoded' }, 415],
  ])('refuses a call with %s and runs nothing', async (_name, headers, status) => {
    vi.mocked(core.invoke).mockClear();
    const withToken = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('__TOKEN__', host.token)]));
    const r = await call('totalBalance', '{}', withToken);
    expect(r.status).toBe(status);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { kind: 'invalid_request' } });
    expect(core.invoke).not.toHaveBeenCalled();
  });

  it('answers bad JSON and oversized bodies with a clear error', async () => {
    const bad = await call('totalBalance', '{"currency":');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toMatch(/not valid JSON/);
    const big = await call('totalBalance', JSON.stringify({ pad: 'x'.repeat(2 << 20) }));
    expect(big.status).toBe(413);
  });

  it('streams core events to a token holder only', async () => {
    const refused = await raw(host, { method: 'GET', path: '/events' });
    expect(refused.status).toBe(401);
    const res = await fetch(`${host.origin}/events`, { headers: { Authorization: `Bearer ${host.token}` } });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    await reader.read();
    const payload = {
      buckets: [
        {
          key: 'withdraw:POST /withdrawals',
          queued: 4,
          in_flight: 0,
          used: 1,
          remaining: 0,
          limit: 1,
          window_sec: 3,
          paused_until_ms: null,
          pause_reason: null,
        },
      ],
    };
    for (const l of listeners) l('rateLimits', payload);
    let text = '';
    while (!text.includes('\n\n')) text += (await reader.read()).value;
    expect(text).toBe(`event: rateLimits\ndata: ${JSON.stringify(payload)}\n\n`);
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 50));
    expect(listeners.size).toBe(0);
  });

  it('never serves files outside the app folder', async () => {
    for (const path of ['/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc%2fpasswd.txt']) {
      const r = await raw(host, { method: 'GET', path });
      expect(r.body).not.toContain('root:');
    }
  });

  it('follows no symlink out of the build folder', async () => {
    expect((await raw(host, { method: 'GET', path: '/assets/main.js' })).status).toBe(200);
    for (const path of ['/assets/escape.txt', '/up/outside.txt']) {
      const r = await raw(host, { method: 'GET', path });
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain('OUTSIDE-THE-APP');
    }
  });

  it('never serves a source map', async () => {
    for (const path of ['/assets/main.js.map', '/assets/main.js.MAP', '/assets/%6d%61%69%6e.js.map']) {
      const r = await raw(host, { method: 'GET', path });
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain('SOURCE-OF-THE-DESK');
    }
  });

  it('answers a malformed % escape with 400, not 500', async () => {
    for (const path of ['/%', '/%E0%A4%A', '/assets/%zz.js']) {
      const r = await raw(host, { method: 'GET', path });
      expect(r.status, path).toBe(400);
      expect(JSON.parse(r.body).error.message).toMatch(/malformed % escape/);
    }
  });

  it('lets the browser keep the content-named app files, never the page or an answer', async () => {
    expect((await raw(host, { method: 'GET', path: '/assets/main.js' })).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await raw(host, { method: 'GET', path: '/' })).headers['cache-control']).toBe('no-store');
    expect((await call('deskStatus', '{}')).headers['cache-control']).toBe('no-store');
  });

  it('listens on the port of the last start when it is free, on another when it is taken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-port-'));
    const portFile = join(dir, 'web-port');
    const first = await startWebHost({ core, staticDir: dir, portFile });
    const port = new URL(first.origin).port;
    expect(readFileSync(portFile, 'utf8').trim()).toBe(port);
    await first.close();
    const again = await startWebHost({ core, staticDir: dir, portFile });
    // The port is still taken by `again` when a third host starts: it takes another, and keeps that one.
    const third = await startWebHost({ core, staticDir: dir, portFile });
    try {
      expect(new URL(again.origin).port).toBe(port);
      expect(new URL(third.origin).port).not.toBe(port);
      expect(readFileSync(portFile, 'utf8').trim()).toBe(new URL(third.origin).port);
    } finally {
      await again.close();
      await third.close();
    }
  });

  it("has made its HTTP client ready before it says where it listens (the core's first fetch is not the process's)", async () => {
    const fetched = vi.spyOn(globalThis, 'fetch');
    try {
      const dir = mkdtempSync(join(tmpdir(), 'desk-warm-'));
      const warm = await startWebHost({ core, staticDir: dir });
      try {
        expect(fetched).toHaveBeenCalledWith(`${warm.origin}/.http-client-warm-up`, expect.anything());
        // What it asked is answered like any unknown path: nothing of the core ran for it.
        expect((await raw(warm, { method: 'GET', path: '/.http-client-warm-up' })).status).toBe(404);
      } finally {
        await warm.close();
      }
    } finally {
      fetched.mockRestore();
    }
  });
});
