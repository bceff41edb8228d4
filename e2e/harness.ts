import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import type { ConfirmCore, Core } from '../electron/core/core.ts';
import { openDesk, type DeskOptions } from '../electron/core/desk.ts';
import { startConfirmHost, type ConfirmHost } from '../electron/host/confirm-web.ts';
import { startWebHost, type WebHost } from '../electron/host/web.ts';
import { superviseSandbox, type SupervisedSandbox } from '../electron/sandbox-launcher.ts';

export const ROOT = join(import.meta.dirname, '..');

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const CHROME_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
];

/** CHROMIUM_PATH, then Debian's Chromium, then an installed Chrome. */
export function findBrowser(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, but no file is there.`);
    return fromEnv;
  }
  const found = CHROME_PATHS.find((p) => existsSync(p));
  if (found) return found;
  throw new Error(
    'No browser for the e2e tests. Install Chromium with `sudo apt-get install -y chromium` (Debian/Ubuntu), ' +
      'or install Google Chrome, or set CHROMIUM_PATH to a Chromium or Chrome executable.',
  );
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: findBrowser(), args: CHROMIUM_FLAGS, headless: true });
}

/**
 * A browser whose profile (its cache, V8's code cache, its storage) lives in `dir` and outlasts its tabs,
 * as an operator's window keeps its own between two starts of the desk (Electron's session; the browser
 * `npm start` prints its address to, on the port it keeps).
 */
export async function launchBrowserWithProfile(dir: string, viewport?: { width: number; height: number }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, {
    executablePath: findBrowser(),
    args: CHROMIUM_FLAGS,
    headless: true,
    ...(viewport && { viewport }),
  });
}

export interface DeskUnderTest {
  core: Core & ConfirmCore;
  /** The confirmation page's own origin (web host). */
  confirm: ConfirmHost;
  /** Supervised as `npm start` does: restarted on the same port and data when it dies. */
  sandbox: SupervisedSandbox;
  host: WebHost;
  dataDir: string;
  stop(): Promise<void>;
}

/** A real Sandbox process and the real web host over it, as `npm start` runs them. */
export async function startDesk(
  opts: {
    sandboxArgs?: string[];
    /** How long the Sandbox may take to seed its world and listen (the bench world takes the better part of a minute). */
    sandboxTimeoutMs?: number;
    history?: DeskOptions['history'];
    coolingOffMs?: number;
    writes?: DeskOptions['writes'];
    /** Puts something between the desk and the Sandbox: given the Sandbox's base address, answers the one the desk uses. */
    via?: (sandboxBaseUrl: string) => Promise<string>;
  } = {},
): Promise<DeskUnderTest> {
  const dataDir = mkdtempSync(join(tmpdir(), 'treasury-desk-e2e-'));
  let core: (Core & ConfirmCore) | undefined;
  const sandbox = await superviseSandbox({
    root: ROOT,
    dataDir: join(dataDir, 'sandbox'),
    extraArgs: opts.sandboxArgs ?? [],
    ...(opts.sandboxTimeoutMs !== undefined ? { timeoutMs: opts.sandboxTimeoutMs } : {}),
    onDown: () => core?.reportSandbox?.('down'),
    onRestarted: () => core?.reportSandbox?.('restarted'),
  });
  try {
    let credentialsPath = sandbox.credentialsPath;
    if (opts.via) {
      const creds = readSandboxCredentials(sandbox.credentialsPath);
      creds.base_url = await opts.via(creds.base_url);
      credentialsPath = join(dataDir, 'credentials-via.json');
      writeFileSync(credentialsPath, JSON.stringify(creds), { mode: 0o600 });
    }
    core = openDesk({
      home: join(dataDir, 'home'),
      sandboxCredentialsPath: credentialsPath,
      log: () => {},
      ...(opts.history ? { history: opts.history } : {}),
      ...(opts.coolingOffMs !== undefined ? { coolingOffMs: opts.coolingOffMs } : {}),
      ...(opts.writes ? { writes: opts.writes } : {}),
    });
    const opened = core;
    const host = await startWebHost({ core: opened, staticDir: join(ROOT, 'dist', 'renderer') });
    const confirm = await startConfirmHost({ core: opened, staticDir: join(ROOT, 'dist', 'renderer') });
    return {
      core: opened,
      confirm,
      sandbox,
      host,
      dataDir,
      async stop() {
        await host.close();
        await confirm.close();
        await opened.close();
        await sandbox.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await sandbox.stop();
    throw e;
  }
}
