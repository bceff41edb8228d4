import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../electron/core/testkit/sandbox.ts';
import { ROOT } from './harness.ts';
import { CHANNEL_NAMES } from '../shared/ipc.ts';
import { sandboxGet } from './sandboxApi.ts';

// The Electron binary is fetched on first run where there is internet; this test never triggers that
// download, and skips with the reason where the binary or a display is missing.
function electronBinary(): { path: string } | { skip: string } {
  const pkg = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile))
    return {
      skip: 'the Electron binary is not installed (node_modules/electron/path.txt is absent; it downloads on first `npm start` with internet)',
    };
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return { skip: `the Electron binary is missing at ${binary}` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { skip: 'no display (run under xvfb-run)' };
  return { path: binary };
}

const electron = electronBinary();
const reason = 'skip' in electron ? ` [skipped: ${electron.skip}]` : '';

describe.skipIf('skip' in electron)(`the Electron app${reason}`, () => {
  const sandbox = useSandbox('desk-electron');

  it("opens a hardened window that shows the Sandbox's total balance", async () => {
    const app = await _electron.launch({
      executablePath: (electron as { path: string }).path,
      args: [ROOT],
      env: { ...process.env, TREASURY_DESK_SANDBOX_CREDENTIALS: sandbox.credentialsPath },
    });
    try {
      const page = await app.firstWindow();
      const amount = page.getByTestId('total-amount');
      await amount.waitFor();
      const expected = await sandboxGet<{ total: { amount: string } }>(sandbox.credentialsPath, '/wallet/total_balance', 'currency=USDT');
      expect((await amount.textContent())!.replaceAll(',', '')).toBe(expected.total.amount);
      // No Node in the page, no ipcRenderer, and the desk API is one method per channel.
      expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
      expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
      expect(await page.evaluate(() => Object.keys((globalThis as unknown as { desk: object }).desk).sort())).toEqual(
        [...CHANNEL_NAMES].sort(),
      );
      // Navigation away and new windows are denied: the main process records each attempt and what became
      // of it (as Actual Budget's navigation test records shell.openExternal), so the test waits for the
      // evidence instead of sleeping and looking.
      await app.evaluate(({ app: electronApp, BrowserWindow }) => {
        const seen: Array<{ what: string; url: string; prevented?: boolean }> = [];
        (globalThis as { deskNavigation?: typeof seen }).deskNavigation = seen;
        const contents = BrowserWindow.getAllWindows()[0]!.webContents;
        // Registered after the desk's own handlers, so `defaultPrevented` tells whether they refused it.
        contents.on('will-navigate', (event, url) => {
          seen.push({ what: 'navigate', url, prevented: event.defaultPrevented });
        });
        contents.on('did-navigate', (_event, url) => {
          seen.push({ what: 'navigated', url });
        });
        electronApp.on('browser-window-created', () => {
          seen.push({ what: 'window', url: '' });
        });
      });
      const evidence = () => app.evaluate(() => (globalThis as { deskNavigation?: unknown[] }).deskNavigation);
      await page.evaluate(() => {
        (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/away';
      });
      await expect.poll(evidence).toContainEqual({ what: 'navigate', url: 'https://example.com/away', prevented: true });
      await page.evaluate(() => {
        (globalThis as unknown as { open: (u: string) => unknown }).open('https://example.com/popup');
      });
      // The popup is refused in the main process before any window exists; a later navigation proves
      // the window.open call was handled in order before it.
      await page.evaluate(() => {
        (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/after';
      });
      await expect.poll(evidence).toContainEqual({ what: 'navigate', url: 'https://example.com/after', prevented: true });
      expect((await evidence())!.filter((e) => (e as { what: string }).what !== 'navigate')).toEqual([]);
      // Served on the privileged app:// scheme, never from file://.
      expect(page.url()).toMatch(/^app:\/\/desk\/index\.html/);
      expect(app.windows()).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});

describe.runIf('skip' in electron)('the Electron app', () => {
  it.skip(`is not run here: ${'skip' in electron ? electron.skip : ''}`, () => {});
});

/** electron-builder's unpacked output for this platform (`npm run dist`), if one was built here. */
function packagedBinary(): { path: string } | { skip: string } {
  const candidates: Record<string, string> = {
    linux: join(ROOT, 'release', 'linux-unpacked', 'treasury-desk'),
    darwin: join(ROOT, 'release', 'mac', 'Treasury Desk.app', 'Contents', 'MacOS', 'Treasury Desk'),
    win32: join(ROOT, 'release', 'win-unpacked', 'Treasury Desk.exe'),
  };
  const path = candidates[process.platform];
  if (!path || !existsSync(path))
    return {
      skip: `no packaged app at ${path ?? `release/ for ${process.platform}`} (run \`npm run dist -- --dir\` where the Electron binary exists)`,
    };
  return { path };
}

/** A packaged app that can also open a window here. */
function packagedWithDisplay(): { path: string } | { skip: string } {
  const p = packagedBinary();
  if ('skip' in p) return p;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { skip: 'no display (run under xvfb-run)' };
  return p;
}
const installed = packagedWithDisplay();

describe.skipIf('skip' in installed)(`the installed app${'skip' in installed ? ` [skipped: ${installed.skip}]` : ''}`, () => {
  it('starts its own Sandbox, shows a balance from it as play money, and stops it when it quits', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-installed-'));
    try {
      // No credentials from outside: the installed app must start the Sandbox itself.
      const { TREASURY_DESK_SANDBOX_CREDENTIALS: _outside, ...inherited } = process.env;
      const env = { ...inherited, TREASURY_DESK_HOME: home } as Record<string, string>;
      const app = await _electron.launch({ executablePath: (installed as { path: string }).path, env });
      const page = await app.firstWindow();
      await page.getByTestId('total-amount').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('play-money').textContent()).toContain('play money');
      const credentials = join(home, 'sandbox', 'credentials.json');
      const { base_url: base } = JSON.parse(readFileSync(credentials, 'utf8')) as { base_url: string };
      const expected = await sandboxGet<{ total: { amount: string } }>(credentials, '/wallet/total_balance', 'currency=USDT');
      expect((await page.getByTestId('total-amount').textContent())!.replaceAll(',', '')).toBe(expected.total.amount);
      await app.close();
      await expect(fetch(`${base}/spot/currency_pairs`)).rejects.toThrow();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.runIf('skip' in installed)('the installed app', () => {
  it.skip(`is not started here: ${'skip' in installed ? installed.skip : ''}`, () => {});
});

const packaged = packagedBinary();

describe.skipIf('skip' in packaged)(`the packaged app's fuses${'skip' in packaged ? ` [skipped: ${packaged.skip}]` : ''}`, () => {
  it('are flipped in the binary as electron-builder.yml asks', async () => {
    const { getCurrentFuseWire, FuseV1Options } = await import('@electron/fuses');
    // @electron/fuses keeps FuseState out of its index: the wire holds '0' (48) for off and '1' (49) for on.
    const FuseState = { DISABLE: 48, ENABLE: 49 } as const;
    const wire = await getCurrentFuseWire((packaged as { path: string }).path);
    expect({
      runAsNode: wire[FuseV1Options.RunAsNode],
      nodeOptions: wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable],
      inspect: wire[FuseV1Options.EnableNodeCliInspectArguments],
      cookieEncryption: wire[FuseV1Options.EnableCookieEncryption],
      asarIntegrity: wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
      onlyAsar: wire[FuseV1Options.OnlyLoadAppFromAsar],
      fileExtraPrivileges: wire[FuseV1Options.GrantFileProtocolExtraPrivileges],
    }).toEqual({
      runAsNode: FuseState.DISABLE,
      nodeOptions: FuseState.DISABLE,
      inspect: FuseState.DISABLE,
      cookieEncryption: FuseState.ENABLE,
      asarIntegrity: FuseState.ENABLE,
      onlyAsar: FuseState.ENABLE,
      fileExtraPrivileges: FuseState.DISABLE,
    });
  });
});

describe.runIf('skip' in packaged)("the packaged app's fuses", () => {
  it.skip(`are not checked here: ${'skip' in packaged ? packaged.skip : ''}`, () => {});
});
