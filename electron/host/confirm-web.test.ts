import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConfirmCore, Core } from '../core/core.ts';
import { startConfirmHost, type ConfirmHost } from './confirm-web.ts';
import { startWebHost, type WebHost } from './web.ts';

// Under the web host the confirmation page is another origin. The adversary is the main page's script:
// it knows the main token and can make any request a browser page can.

let dir: string;
let main: WebHost;
let confirm: ConfirmHost;
const core: Core & ConfirmCore = {
  invoke: vi.fn(async (channel: string) => ({
    ok: false as const,
    error: { kind: 'invalid_request' as const, message: `unknown channel: ${channel}` },
  })),
  subscribe: () => () => {},
  close: async () => {},
  invokeConfirm: vi.fn(async () => ({ ok: true as const, data: { signed: true } })),
  subscribeConfirm: () => () => {},
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'confirm-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<p>main</p>');
  writeFileSync(join(dir, 'confirm.html'), '<p>confirm</p>');
  main = await startWebHost({ core, staticDir: dir });
  confirm = await startConfirmHost({ core, staticDir: dir });
});
afterAll(async () => {
  await main.close();
  await confirm.close();
  rmSync(dir, { recursive: true, force: true });
});

const sign = { ticket: 't', operator: 'o', passphrase: 'a passphrase!' };
const post = (url: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(sign) });

describe('the confirmation page under the web host', () => {
  it('is served on its own origin, and that origin serves only the confirmation page', async () => {
    expect(confirm.origin).not.toBe(main.origin);
    expect(await (await fetch(`${confirm.origin}/`)).text()).toBe('<p>confirm</p>');
    expect((await fetch(`${confirm.origin}/index.html`)).status).toBe(404);
    expect((await fetch(`${confirm.origin}/`)).headers.get('x-frame-options')).toBe('DENY');
  });

  it("refuses the main page's token, the main page's origin, and no token; the main host has no confirmation channel", async () => {
    const mainToken = main.token;
    expect((await post(`${confirm.origin}/rpc/confirmSign`, { Authorization: `Bearer ${mainToken}` })).status).toBe(401);
    expect((await post(`${confirm.origin}/rpc/confirmSign`, {})).status).toBe(401);
    const confirmToken = new URL(confirm.url).hash.replace('#token=', '');
    expect((await post(`${confirm.origin}/rpc/confirmSign`, { Authorization: `Bearer ${confirmToken}`, Origin: main.origin })).status).toBe(
      403,
    );
    expect(core.invokeConfirm).not.toHaveBeenCalled();
    // On the main host the name is just an unknown channel of the main contract.
    const viaMain = await (await post(`${main.origin}/rpc/confirmSign`, { Authorization: `Bearer ${mainToken}` })).json();
    expect(viaMain).toMatchObject({ ok: false, error: { message: expect.stringMatching(/unknown channel/) } });
    expect(core.invokeConfirm).not.toHaveBeenCalled();
    expect(await (await post(`${confirm.origin}/rpc/confirmSign`, { Authorization: `Bearer ${confirmToken}` })).json()).toEqual({
      ok: true,
      data: { signed: true },
    });
    expect(core.invokeConfirm).toHaveBeenCalledWith('confirmSign', sign);
  });

  it('takes its token only as `Authorization: Bearer <token>`, and runs nothing otherwise', async () => {
    vi.mocked(core.invokeConfirm).mockClear();
    const token = new URL(confirm.url).hash.replace('#token=', '');
    for (const authorization of [token, `bearer ${token}`, `Basic ${token}`, `Bearer  ${token}`]) {
      const r = await post(`${confirm.origin}/rpc/confirmSign`, { Authorization: authorization });
      expect(r.status, authorization.replace(token, '<token>')).toBe(401);
      expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/confirmation token/);
    }
    const events = await fetch(`${confirm.origin}/events`, { headers: { Authorization: token } });
    expect(events.status).toBe(401);
    expect(core.invokeConfirm).not.toHaveBeenCalled();
  });

  it('answers a malformed % escape with 400 naming it, not 500', async () => {
    for (const path of ['/%', '/assets/%E0%A4%A', '/assets/%zz.js']) {
      const r = await fetch(`${confirm.origin}${path}`);
      expect(r.status, path).toBe(400);
      expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/malformed % escape/);
    }
  });
});
