import type { SandboxCredentials } from '../shared/sandbox.ts';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';

// An operator adds a key as a person would: passphrase first, then the profile, which the desk checks
// with one read call before keeping it; then locks and unlocks. The Sandbox plays the exchange.

const PASSPHRASE = 'correct horse battery staple';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** A loopback port where nothing listens (one just given up by a server). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** An element's text as shown with its "Details" disclosures closed (a page script as text: no DOM types on this side). */
const SHOWN = new Function(
  'el',
  "const c = el.cloneNode(true); c.querySelectorAll('details').forEach((d) => d.remove()); return c.textContent;",
);
const shownText = (l: Locator): Promise<string> => l.evaluate(SHOWN as () => string);

describe('Settings: profiles, keys at rest and the lock', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let creds: SandboxCredentials;

  beforeAll(async () => {
    desk = await startDesk();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.setDefaultTimeout(15_000);
    creds = readSandboxCredentials(desk.sandbox.credentialsPath);
    await page.goto(desk.host.url);
    await page.getByRole('link', { name: 'Settings' }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('lists the built-in Sandbox profile as active', async () => {
    const row = page.locator('[data-profile="Sandbox"]');
    await expect.poll(() => row.textContent()).toContain('active');
  });

  it('sets a passphrase before any live key is stored', async () => {
    await page.getByLabel('New passphrase', { exact: true }).fill(PASSPHRASE);
    await page.getByLabel('Repeat new passphrase').fill(PASSPHRASE);
    await page.getByRole('button', { name: 'Set passphrase' }).click();
    await page.getByText('Passphrase saved.').waitFor();
    await expect.poll(() => page.getByTestId('vault').textContent()).toContain('passphrase (scrypt, AES-256-GCM)');
  });

  it('checks a key with the exchange and keeps nothing when the exchange refuses it', async () => {
    await page.getByRole('button', { name: 'Add a profile' }).click();
    const form = page.getByRole('form', { name: 'New profile' });
    await form.getByLabel('Name', { exact: true }).fill('Rehearsal');
    // A plain-http exchange on loopback (the Sandbox) is accepted for the futures-alternative profile only: live and simulated trading need https.
    await form.getByLabel('Environment').selectOption('futures');
    await form.getByLabel('Base address').fill(creds.base_url);
    await form.getByLabel('Service name in headers').fill('Svc');
    await form.getByLabel('API key').fill(creds.read_only.key);
    await form.getByLabel('API secret').fill('0'.repeat(64));
    // First at an address where nothing answers: the connection's failure in words, its system code under Details.
    const nowhere = new URL(creds.base_url);
    nowhere.port = String(await closedPort());
    await form.getByLabel('Base address').fill(nowhere.toString());
    await form.getByRole('button', { name: 'Check and save' }).click();
    const alert = form.getByRole('alert');
    await alert.filter({ hasText: 'could not be reached' }).waitFor();
    expect(await shownText(alert)).toContain(`The exchange could not be reached at ${nowhere.host}: nothing answered there.`);
    expect(await shownText(alert)).not.toMatch(/ECONNREFUSED|\/spot\/|\/wallet\/|GET /);
    expect(await alert.locator('details').textContent()).toContain('ECONNREFUSED');
    // Then the exchange itself refuses the key: the label's words, the label only under Details.
    await form.getByLabel('Base address').fill(creds.base_url);
    await form.getByRole('button', { name: 'Check and save' }).click();
    await alert.filter({ hasText: 'secret in Settings' }).waitFor();
    expect(await shownText(alert)).toContain('Check that the secret in Settings matches the key.');
    expect(await shownText(alert)).not.toMatch(/INVALID_SIGNATURE|highlighted field/);
    expect(await alert.locator('details').textContent()).toContain('INVALID_SIGNATURE');
    expect(await page.locator('[data-profile="Rehearsal"]').count()).toBe(0);
  });

  it('refuses a malformed field in the form itself, naming it', async () => {
    const form = page.getByRole('form', { name: 'New profile' });
    await form.getByLabel('Base address').fill('ftp://example.com');
    await form.getByRole('button', { name: 'Check and save' }).click();
    await expect.poll(() => form.textContent()).toContain('/api/v4');
    await form.getByLabel('Base address').fill(creds.base_url);
  });

  it('saves the key once the exchange accepts it, and shows it masked only', async () => {
    const form = page.getByRole('form', { name: 'New profile' });
    await form.getByLabel('API secret').fill(creds.read_only.secret);
    await form.getByRole('button', { name: 'Check and save' }).click();
    const row = page.locator('[data-profile="Rehearsal"]');
    await row.waitFor();
    expect(await row.textContent()).toContain(`${creds.read_only.key.slice(0, 4)}…${creds.read_only.key.slice(-4)}`);
    await page.screenshot({ path: join(ROOT, 'resources', 'screenshots', 'settings.png'), fullPage: true });
    const html = await page.content();
    expect(html).not.toContain(creds.read_only.key);
    expect(html).not.toContain(creds.read_only.secret);
    // On disk: the secret and the key only sealed, never in clear.
    for (const file of filesUnder(join(desk.dataDir, 'home'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(creds.read_only.secret);
      expect(text, file).not.toContain(creds.read_only.key);
    }
  });

  it('switches to the new profile and reads balances with its key', async () => {
    await page.locator('[data-profile="Rehearsal"]').getByRole('button', { name: 'Use' }).click();
    await expect.poll(() => page.getByTestId('profile').textContent()).toContain('Rehearsal');
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByTestId('total-amount').waitFor();
  });

  it('locks on demand, refuses a wrong passphrase, and unlocks with the right one', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Lock now' }).click();
    const lock = page.getByRole('dialog', { name: 'Treasury Desk is locked' });
    await lock.waitFor();
    // While locked, the core signs nothing.
    const locked = await desk.core.invoke('totalBalance', {});
    expect(locked).toMatchObject({ ok: false, error: { kind: 'locked' } });
    await lock.getByLabel('Passphrase').fill('not the passphrase');
    await lock.getByRole('button', { name: 'Unlock' }).click();
    await lock.getByRole('alert').waitFor();
    // Two more misses, and the next try must wait: the screen says so and holds the button.
    for (const guess of ['not the passphrase 2', 'not the passphrase 3']) {
      await lock.getByLabel('Passphrase').fill(guess);
      await lock.getByRole('button', { name: 'Unlock' }).click();
      await expect.poll(() => lock.getByLabel('Passphrase').inputValue(), { timeout: 15_000 }).toBe('');
    }
    const wait = lock.getByTestId('unlock-wait');
    await wait.waitFor();
    expect(await wait.textContent()).toMatch(/^Too many wrong passphrases\. Wait \d+ s before the next try\.$/);
    expect(await lock.getByRole('button', { name: 'Unlock' }).isDisabled()).toBe(true);
    await wait.waitFor({ state: 'detached' });
    await lock.getByLabel('Passphrase').fill(PASSPHRASE);
    await lock.getByRole('button', { name: 'Unlock' }).click();
    await lock.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('profile').textContent()).toContain('Rehearsal');
  });
});
