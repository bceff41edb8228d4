import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PagePath } from '../renderer/src/app/paths.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { seedLargest } from './largestData.ts';

// The shell in a real browser over the real web host and Sandbox: addresses, keyboard, contrast and
// structure (axe-core), the layout at 1024×700 and 1280×800 with the widest data the Sandbox's world
// holds, and a screenshot of each page in each theme.

/** When each page has drawn what it holds: one per route (routes.ts), so a new page fails the typecheck here. */
const READY: Record<PagePath, (p: Page) => Promise<void>> = {
  overview: (p) => p.getByTestId('total-amount').waitFor(),
  'sub-accounts': (p) => p.getByTestId('matrix-totals').waitFor(),
  withdrawals: (p) => p.locator('.history-row[data-row]').first().waitFor(),
  deposits: (p) => p.locator('.history-row[data-row]').first().waitFor(),
  transfers: (p) => p.locator('.history-row[data-row]').first().waitFor(),
  orders: (p) => p.getByTestId('order-book').waitFor(),
  payouts: (p) => p.getByRole('heading', { level: 1, name: 'Payouts' }).waitFor(),
  'small-balances': (p) => p.getByTestId('dust-total').waitFor(),
  rebalance: async (p) => {
    await p.getByRole('button', { name: 'Read balances' }).click();
    await p.getByTestId('scope').waitFor();
  },
  approvals: (p) => p.getByTestId('approval-item').first().waitFor(),
  statements: (p) => p.getByRole('button', { name: 'Build statement' }).waitFor(),
  journal: (p) => p.locator('[data-entry]').first().waitFor(),
  activity: (p) => p.getByTestId('intents').waitFor(),
  settings: (p) => p.getByTestId('vault').waitFor(),
};

/** Pixels by which the page, and the main content element, are wider than their view (0 or less: they fit). */
const SIDEWAYS = `(() => {
  const d = document.documentElement, m = document.querySelector('main');
  return { page: d.scrollWidth - d.clientWidth, main: m.scrollWidth - m.clientWidth };
})()`;

describe('the shell in a real browser', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let approvalAddress = '';
  const origin = () => desk.host.origin;

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    browser = await launchBrowser();
    approvalAddress = (await seedLargest(desk)).address;
    // A long withdrawal for review, so that Activity has a row with actions to lay out and reach.
    const prepared = await desk.core.invoke('writePrepare', {
      write: {
        kind: 'withdrawal',
        input: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '1234.5' },
      },
    });
    expect(prepared.ok).toBe(true);
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  async function open(viewport = { width: 1024, height: 700 }, colorScheme: 'light' | 'dark' = 'light') {
    context = await browser.newContext({ viewport, colorScheme });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(desk.host.url);
    await page.getByTestId('total-amount').waitFor();
    return page;
  }

  it('keeps the view in the address: deep link, reload, back and forward', async () => {
    await open();
    // The token is kept for this tab: a deep link in the same tab opens that view with its parameters.
    await page.goto(`${origin()}/#/overview?currency=BTC`);
    await expect.poll(() => page.getByTestId('total-currency').textContent()).toBe('BTC');
    await page.reload();
    await expect.poll(() => page.getByTestId('total-currency').textContent()).toBe('BTC');
    expect(await page.getByRole('button', { name: 'BTC' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    expect(page.url()).toMatch(/#\/activity$/);
    expect(await page.getByRole('link', { name: 'Activity' }).getAttribute('aria-current')).toBe('page');
    await page.goBack();
    await expect.poll(() => page.getByTestId('total-currency').textContent()).toBe('BTC');
    expect(page.url()).toMatch(/#\/overview\?currency=BTC$/);
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await context.close();
  });

  /** Asserts that `what` lies wholly inside the window's width. */
  async function inView(what: ReturnType<Page['locator']>, label: string, width: number) {
    const box = await what.boundingBox();
    expect(box, `${label} is drawn`).not.toBeNull();
    expect(box!.x, `${label} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${label} ends inside the ${width} px window`).toBeLessThanOrEqual(width);
  }

  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of [
      { width: 1024, height: 700 },
      { width: 1280, height: 800 },
    ]) {
      const size = `${viewport.width}×${viewport.height}`;
      const shots = viewport.width === 1024;
      it(`fits every page at ${size} in the ${theme} theme without sideways scrolling${shots ? ', passes axe-core and saves screenshots' : ''}`, async () => {
        await open(viewport, theme);
        mkdirSync(join(ROOT, 'resources', 'screenshots'), { recursive: true });
        // Every page the sidebar offers (it lists routes.ts), each of them known here.
        const links = page.getByRole('navigation', { name: 'Pages' }).getByRole('link');
        const pages = (await links.evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent]))).map(([href, title]) => ({
          path: String(href).replace(/^#\//, '') as PagePath,
          title: String(title),
        }));
        expect(pages.map((p) => p.path).sort()).toEqual(Object.keys(READY).sort());
        for (const p of pages) {
          await page.getByRole('link', { name: p.title, exact: true }).click();
          await page.getByRole('heading', { level: 1, name: p.title }).waitFor();
          await READY[p.path](page);
          expect(await page.evaluate<string>('document.documentElement.dataset.theme')).toBe(theme);
          const over = await page.evaluate<{ page: number; main: number }>(SIDEWAYS);
          expect(over.page, `${p.path} at ${size} scrolls sideways by ${over.page} px`).toBeLessThanOrEqual(0);
          expect(over.main, `${p.path} at ${size}: its content is ${over.main} px wider than the page`).toBeLessThanOrEqual(0);
          if (p.path === 'approvals') {
            const row = page.getByTestId('approval-item').filter({ hasText: approvalAddress });
            await inView(row.getByRole('button', { name: 'Approve' }), 'Approve', viewport.width);
            await inView(row.getByRole('button', { name: 'Reject' }), 'Reject', viewport.width);
          }
          if (p.path === 'withdrawals') {
            // The first row's detail: its address, whole, and its copy button.
            await page.locator('.history-row[data-row]').first().click();
            const detail = page.locator('aside[data-detail]');
            await inView(detail.getByTestId('detail-address'), "the withdrawal's address", viewport.width);
            await inView(detail.getByRole('button', { name: 'Copy address' }), 'Copy address', viewport.width);
            const again = await page.evaluate<{ page: number; main: number }>(SIDEWAYS);
            expect(Math.max(again.page, again.main), `withdrawals with a detail open at ${size} overflows`).toBeLessThanOrEqual(0);
            await detail.getByRole('button', { name: 'Close' }).click();
          }
          if (!shots) continue;
          if (p.path === 'overview') {
            // The chart's tooltip is checked as shown: the theme's colours (axe measures them) and a grouped figure.
            await page.locator('[data-testid="breakdown-chart"] .recharts-bar-rectangle').first().hover();
            const tip = page.locator('.chart-tooltip');
            await tip.waitFor();
            expect(await tip.textContent()).toMatch(/^Spot\d{1,3}(,\d{3})+(\.\d+)? USDT$/);
          }
          const result = await new AxeBuilder({ page }).analyze();
          const bad = result.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map(
              (v) =>
                `${v.id} (${v.impact}): ${v.nodes
                  .slice(0, 3)
                  .map((n) => n.target.join(' '))
                  .join(' | ')}`,
            );
          expect(bad, `${p.path} in ${theme}`).toEqual([]);
          await page.screenshot({ path: join(ROOT, 'resources', 'screenshots', `${p.path}-${theme}.png`) });
        }
        await context.close();
      });
    }
  }

  it('works from the keyboard alone, and focus never falls to the page body', async () => {
    await open({ width: 1280, height: 800 });
    // (Page scripts are strings: this side of the tests is type-checked for Node, without the DOM's types.)
    const focused = () =>
      page.evaluate<string>(`(() => {
      const a = document.activeElement;
      if (!a || a === document.body) return 'body';
      const name = a.getAttribute('aria-label') ?? a.labels?.[0]?.textContent ?? a.textContent?.trim().slice(0, 40);
      return a.tagName.toLowerCase() + ':' + name;
    })()`);
    // From the top of the page, Tab reaches the sidebar; Enter opens Settings.
    let reached = '';
    for (let i = 0; i < 18 && reached !== 'a:Settings'; i++) {
      await page.keyboard.press('Tab');
      reached = await focused();
    }
    expect(reached).toBe('a:Settings');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

    // Under the web host a live key needs a passphrase first; the page says so and holds the form back.
    await page.getByTestId('passphrase-needed').waitFor();
    expect(await page.getByRole('button', { name: 'Add a profile' }).isDisabled()).toBe(true);
    expect((await desk.core.invoke('vaultSetPassphrase', { next: 'correct horse battery staple' })).ok).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Add a profile' }).isDisabled()).toBe(false);

    // "Add a profile" opens the form in a modal dialog: focus inside, Tab stays inside, Escape closes it, focus back on the button.
    await page.getByRole('button', { name: 'Add a profile' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'New profile' });
    await form.waitFor();
    // The dialog's first control takes focus: which kind of profile (with a key, or an auditor's).
    expect(await focused()).toMatch(/^input: ?With an exchange key$/);
    // The rest of the window is inert: Tab cycles through the dialog (and, as browsers do, the browser's own controls).
    const visited = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate<string>(`(() => {
        const a = document.activeElement;
        return !a || a === document.body ? 'outside the page' : a.closest('dialog') ? 'dialog' : 'page: ' + a.tagName + ' ' + a.textContent?.slice(0, 30);
      })()`);
      visited.add(where);
    }
    expect([...visited].filter((w) => w.startsWith('page:'))).toEqual([]);
    expect(visited.has('dialog')).toBe(true);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(await focused()).toBe('button:Add a profile');

    // Activity: cancel by keyboard (approving is the confirmation window's since the approvals: the policy
    // governs every withdrawal); the buttons go away and focus stays on the write's row.
    await page.getByRole('link', { name: 'Activity' }).focus();
    await page.keyboard.press('Enter');
    const cancel = page.getByRole('button', { name: 'Cancel', exact: true });
    await cancel.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => cancel.count(), { timeout: 30_000 }).toBe(0);
    expect(await page.getByRole('button', { name: 'Approve and send' }).count()).toBe(0);
    expect(await focused()).toMatch(/^tr:Withdrawal 1,234.5 USDT/);
    await context.close();
  });
});
