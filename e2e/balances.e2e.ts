import Decimal from 'decimal.js';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS, mainSpotValue, sandboxFigures, type Figures } from './balancesFigures.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxAdmin, sandboxGet } from './sandboxApi.ts';
import { sandboxAll } from './sandboxHistory.ts';

// The Sub-accounts pages in a real browser over the web host and a real Sandbox: every figure on screen
// is checked against what the Sandbox itself answers to the test's own signer.

const plain = (s: string | null) => (s ?? '').replaceAll(',', '').trim();

/** The desk's address carries its token in the fragment (read once, kept for the tab); then the page's own address. */
async function open(page: Page, url: string, hash: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('profile').waitFor();
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, hash);
}

async function openMatrix(page: Page, url: string): Promise<void> {
  await open(page, url, '#/sub-accounts');
  await page.getByTestId('grand-total').waitFor();
  await expect.poll(() => page.getByTestId('matrix-progress').count(), { timeout: 30_000 }).toBe(0);
}

describe('Sub-account balances against the Sandbox', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let figures: Figures;

  beforeAll(async () => {
    desk = await startDesk();
    browser = await launchBrowser();
    figures = await sandboxFigures(desk.sandbox.credentialsPath);
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('shows every cell of a sample of sub-accounts as the Sandbox reports it, and totals that are the sums', async () => {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await openMatrix(page, desk.host.url);

    const uids = [...figures.keys()];
    expect(uids.length).toBeGreaterThan(5);
    const sample = [uids[0]!, uids[1]!, uids[Math.floor(uids.length / 2)]!, uids.at(-1)!];
    for (const uid of sample) {
      const row = page.locator(`[role="row"][data-uid="${uid}"]`);
      await row.scrollIntoViewIfNeeded();
      let sum = new Decimal(0);
      for (const k of KINDS) {
        const shown = plain(await page.getByTestId(`cell-${uid}-${k}`).textContent());
        expect(shown, `${uid} ${k}`).toBe(figures.get(uid)![k]);
        sum = sum.plus(shown);
      }
      expect(plain(await page.getByTestId(`row-total-${uid}`).textContent()), `${uid} row total`).toBe(sum.toFixed());
    }

    let grand = new Decimal(0);
    for (const k of KINDS) {
      const expected = [...figures.values()].reduce((s, f) => s.plus(f[k]), new Decimal(0));
      const shown = plain(await page.getByTestId(`col-total-${k}`).textContent());
      expect(shown, `column ${k}`).toBe(expected.toFixed());
      grand = grand.plus(shown);
    }
    expect(plain(await page.getByTestId('grand-total').textContent())).toBe(grand.toFixed());

    // The CSV holds the whole filtered matrix: every sub-account, the same figures, and the totals.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(','));
    expect(lines.length).toBe(1 + uids.length + 1);
    const csvRow = lines.find((l) => l[0] === sample[2])!;
    expect(csvRow.slice(2, 2 + KINDS.length)).toEqual(KINDS.map((k) => figures.get(sample[2]!)![k]));
    expect(lines.at(-1)![2 + KINDS.length]).toBe(grand.toFixed());

    mkdirSync(join(ROOT, 'resources', 'screenshots'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'resources', 'screenshots', 'sub-accounts.png') });
    expect(problems).toEqual([]);
  });

  it("keeps a sub-account's own address through a reload", async () => {
    const uid = [...figures.keys()][2]!;
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await open(page, desk.host.url, `#/sub-accounts/${uid}`);
    const total = page.getByTestId('detail-total');
    await total.waitFor();
    const expected = KINDS.reduce((s, k) => s.plus(figures.get(uid)![k]), new Decimal(0)).toFixed();
    expect(plain(await total.textContent())).toBe(expected);
    await page.reload();
    await page.getByTestId('detail-total').waitFor();
    expect(page.url()).toContain(`#/sub-accounts/${uid}`);
    expect(await page.getByTestId('sub-account-title').textContent()).toContain(uid);
    expect(plain(await page.getByTestId('detail-total').textContent())).toBe(expected);
    // §2.8 fields of the cross margin account are shown as sent.
    const cross = await sandboxGet<Array<{ uid: string; available: Record<string, unknown> }>>(
      desk.sandbox.credentialsPath,
      '/wallet/sub_account_cross_margin_balances',
      `sub_uid=${uid}`,
    );
    expect(await page.locator('[data-testid="detail-cross"] [data-field="risk"]').textContent()).toBe(cross[0]!.available.risk);
    // Its transfers with the main account come from the history cache: as many as the Sandbox holds (up to the 50 shown).
    const transfers = await sandboxAll<unknown>(desk.sandbox.credentialsPath, '/wallet/sub_account_transfers', `sub_uid=${uid}`);
    expect(transfers.length).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('sub-account-transfers').locator('tbody tr').count(), { timeout: 60_000 })
      .toBe(Math.min(50, transfers.length));
    await page.screenshot({ path: join(ROOT, 'resources', 'screenshots', 'sub-account-detail.png'), fullPage: true });
  });

  it('raises an alert and marks the row when a cross-margin risk falls below the threshold', async () => {
    const uid = [...figures.keys()][4]!;
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await openMatrix(page, desk.host.url);
    await expect.poll(() => page.getByTestId(`alert-${uid}-cross_risk`).count()).toBe(0);

    // total / borrowed = 1000 / 1000 = 100%: below the default threshold (130%) and below liquidation.
    await sandboxAdmin(desk.sandbox.credentialsPath, 'PUT', `/accounts/${uid}/cross_margin`, {
      currency: 'USDT',
      available: '1000',
      borrowed: '1000',
    });
    await sandboxAdmin(desk.sandbox.credentialsPath, 'PUT', `/accounts/${uid}/cross_margin`, { currency: 'BTC', available: '0' });
    const [cross] = await sandboxGet<Array<{ available: { risk: string } }>>(
      desk.sandbox.credentialsPath,
      '/wallet/sub_account_cross_margin_balances',
      `sub_uid=${uid}`,
    );
    expect(cross!.available.risk).toBe('1');

    await page.getByTestId('matrix-refresh').click();
    const alert = page.getByTestId(`alert-${uid}-cross_risk`);
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toContain('100%');
    await expect.poll(() => page.locator(`[role="row"][data-uid="${uid}"]`).getAttribute('class')).toContain('alerted');
    expect(plain(await page.getByTestId(`risk-${uid}`).textContent())).toBe('100%');

    // Acknowledged by the operator; it stays listed while the risk stands.
    await alert.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => alert.textContent()).toContain('acknowledged');
  });

  it("shows the main account's own spot value and keeps a snapshot of the total at each refresh", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(desk.host.url);
    await page.getByTestId('main-spot').waitFor();
    expect(plain(await page.getByTestId('main-spot').textContent())).toBe(await mainSpotValue(desk.sandbox.credentialsPath));
    const shown = async () =>
      // The caption's own text: the chart beside it ends in axis figures that would run into its count.
      Number(/^(\d+) snapshots/.exec((await page.getByText(/snapshots, one at each fetch of the total/).textContent()) ?? '')?.[1] ?? NaN);
    const kept = async () => {
      const r = await desk.core.invoke('balancesSnapshots', { currency: 'USDT', since: 0 });
      if (!r.ok) throw new Error(r.error.message);
      return (r.data as unknown[]).length;
    };
    // Opening the page fetches the total, which leaves a snapshot of its own: counting before it has
    // landed (and the chart shows all the core keeps) let that one pass for the refresh's, or come after it.
    await page.getByTestId('total-amount').waitFor();
    await expect.poll(async () => `${await shown()} shown, ${await kept()} kept`).toMatch(/^(\d+) shown, \1 kept$/);
    const before = await kept();
    expect(before).toBeGreaterThan(0);
    await page.getByTestId('overview-refresh').click();
    await expect.poll(async () => [await shown(), await kept()]).toEqual([before + 1, before + 1]);
    expect(await page.getByTestId('total-fetched-at').textContent()).not.toContain('—');
    // More Refreshes within the same minute (the exchange may answer from its one-minute cache), even one
    // pressed while the last is under way, are fetches the operator asked for: each is kept and listed.
    await page.getByTestId('overview-refresh').click();
    await page.getByTestId('overview-refresh').click();
    await expect.poll(async () => [await shown(), await kept()]).toEqual([before + 3, before + 3]);
    expect(await page.getByTestId('recent-snapshots').getByRole('row').count()).toBe(Math.min(before + 3, 5) + 1);
  });
});
