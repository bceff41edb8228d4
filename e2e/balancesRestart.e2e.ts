import Decimal from 'decimal.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../electron/core/core.ts';
import { openDesk } from '../electron/core/desk.ts';
import { startWebHost, type WebHost } from '../electron/host/web.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxAdmin, sandboxPost } from './sandboxApi.ts';
import { holdBootChunk } from './heldBoot.ts';

// The returning operator (docs/performance.md §Opening the desk): the desk is closed and started again on the same home, as the next
// `npm start` does. The Sub-accounts page paints the last known figures at once, says they are that and
// how old, and shows the exchange's once they arrive; meanwhile money moved, so the two differ.

const plain = (s: string | null) => (s ?? '').replaceAll(',', '').trim();
const SLOW_READ = '/wallet/sub_account_cross_margin_balances';

async function openMatrix(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('profile').waitFor();
  await page.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/sub-accounts';
  });
  await page.getByTestId('grand-total').waitFor();
}

describe('the Sub-accounts page after the desk restarts', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let again: { core: Core; host: WebHost } | null = null;

  beforeAll(async () => {
    desk = await startDesk();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (again) {
      await again.host.close();
      await again.core.close();
      await desk.sandbox.stop();
      rmSync(desk.dataDir, { recursive: true, force: true });
    } else await desk?.stop();
  });

  it('paints the last known figures marked with their age, then the exchange figures', async () => {
    const first = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await openMatrix(first, desk.host.url);
    await expect.poll(() => first.getByTestId('matrix-fetched-at').textContent(), { timeout: 30_000 }).toMatch(/^Fetched /);
    const uid = (await first.locator('[role="row"][data-uid]').first().getAttribute('data-uid'))!;
    const before = plain(await first.getByTestId(`row-total-${uid}`).textContent());
    const grandBefore = plain(await first.getByTestId('grand-total').textContent());
    await first.close();

    // The desk stops; money moves at the exchange meanwhile; the desk starts again on the same home.
    await desk.host.close();
    await desk.confirm.close();
    await desk.core.close();
    await sandboxPost(desk.sandbox.credentialsPath, '/wallet/sub_account_transfers', {
      sub_account: uid,
      currency: 'USDT',
      amount: '200',
      direction: 'to',
    });
    // One of the load's reads answers late, so that the cached figures stay on screen long enough to be read.
    await sandboxAdmin(desk.sandbox.credentialsPath, 'POST', '/faults', { kind: 'latency', path: SLOW_READ, latency_ms: 3000, times: 1 });
    const core = openDesk({ home: join(desk.dataDir, 'home'), sandboxCredentialsPath: desk.sandbox.credentialsPath, log: () => {} });
    again = { core, host: await startWebHost({ core, staticDir: join(ROOT, 'dist', 'renderer') }) };

    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await openMatrix(page, again.host.url);
    const line = page.getByTestId('matrix-fetched-at');
    expect(await line.textContent()).toMatch(/^Last known figures from \d\d:\d\d \((less than a minute|\d+ minutes?) ago\) · refreshing…$/);
    expect(await page.getByRole('table', { name: 'Sub-account balances (last known figures, not live)' }).count()).toBe(1);
    expect(plain(await page.getByTestId(`row-total-${uid}`).textContent())).toBe(before);
    expect(plain(await page.getByTestId('grand-total').textContent())).toBe(grandBefore);

    // The exchange's figures replace them, with the usual line.
    await expect.poll(() => line.textContent(), { timeout: 30_000 }).toMatch(/^Fetched /);
    expect(await page.getByRole('table', { name: 'Sub-account balances' }).count()).toBe(1);
    expect(plain(await page.getByTestId(`row-total-${uid}`).textContent())).toBe(new Decimal(before).plus(200).toFixed());
  });
  it('paints the matrix from code that loads no schema library and no form', async () => {
    const host = again?.host ?? desk.host;
    const context = await browser.newContext({ viewport: { width: 1500, height: 1000 } });
    // A window that opens on the matrix (as the benchmark's restarts do); at the frame that first shows
    // its grand total, the files the window had asked for.
    await context.addInitScript(`(() => {
      sessionStorage.setItem('desk-token', ${JSON.stringify(host.token)});
      const tick = () => {
        if (!document.querySelector('[data-testid="grand-total"]')) return requestAnimationFrame(tick);
        window.__atPaint = performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname);
      };
      requestAnimationFrame(tick);
    })()`);
    const page = await context.newPage();
    try {
      await page.goto(`${host.origin}/#/sub-accounts`);
      await page.getByTestId('grand-total').waitFor();
      await expect.poll(() => page.evaluate('window.__atPaint !== undefined')).toBe(true);
      const asked = (await page.evaluate('window.__atPaint')) as string[];
      // zod (the contract's schemas, the forms' checks) and the forms' library come after the figures.
      expect(asked.filter((n) => /\/assets\/(zod|zodWords|deskForm|SubAccountDetail)-/.test(n))).toEqual([]);
      expect(asked.some((n) => /\/assets\/SubAccountsRoute-/.test(n))).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("sends the matrix's first reads before the app's code runs, and does not send them twice", async () => {
    const host = again?.host ?? desk.host;
    const context = await browser.newContext({ viewport: { width: 1500, height: 1000 } });
    await context.addInitScript(`sessionStorage.setItem('desk-token', ${JSON.stringify(host.token)})`);
    const release = await holdBootChunk(context);
    const page = await context.newPage();
    const asked: string[] = [];
    const files: string[] = [];
    let saidPainted = 0;
    let painted = false;
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname === '/rpc/windowPainted') saidPainted++;
      if (pathname.startsWith('/rpc/') && !painted) asked.push(pathname.slice('/rpc/'.length));
      if (pathname.startsWith('/assets/')) files.push(pathname);
    });
    try {
      await page.goto(`${host.origin}/#/sub-accounts`, { waitUntil: 'commit' });
      await expect.poll(() => asked).toEqual(['profileCurrent', 'balancesMatrix']);
      // The page's own code is fetched beside those reads, not once the app's code has run.
      await expect.poll(() => files.some((f) => /\/SubAccountsRoute-[^/]+\.js$/.test(f))).toBe(true);
      release();
      await page.getByTestId('grand-total').waitFor();
      painted = true;
      // The app took the answers of those reads: each was asked once before the matrix was painted.
      expect(asked.filter((a) => a === 'profileCurrent')).toHaveLength(1);
      expect(asked.filter((a) => a === 'balancesMatrix')).toHaveLength(1);
      // Then the window tells the core, whose start-up and exchange load waited for that paint (startUp.ts).
      await expect.poll(() => saidPainted).toBe(1);
    } finally {
      release();
      await context.close();
    }
  });
});
