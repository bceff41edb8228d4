import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PagePath } from '../renderer/src/app/paths.ts';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';
import { seedLargest } from './largestData.ts';
import { sandboxAdmin } from './sandboxApi.ts';
import { sandboxSend } from './sandboxHistory.ts';

// The layout rule (docs/layout.md) on the Sandbox's bench world (1,000 sub-accounts, 100,000 withdrawals)
// with sub-accounts of the longest name and remark the Sandbox takes: every page at 1024×700 and 1280×800,
// light and dark, fits the window without sideways scrolling, keeps its status bar on one line, and cuts
// no status and no value without its whole text on hover.

/** The Sandbox's login_name bound is 1 to 32 letters, digits or underscores; its remark's, 128 characters. */
const LONG_NAMES = ['Market_Making_Liquidity_Resrv_01', 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW02'];
const LONG_REMARK =
  'Reserve for the market makers of the European and Asian books, refilled weekly from treasury; ask ops before moving any of it!!!';

/** When each page has drawn what it holds. */
const READY: Record<PagePath, (p: Page) => Promise<void>> = {
  overview: (p) => p.getByTestId('total-amount').waitFor(),
  'sub-accounts': (p) => p.getByTestId('matrix-totals').waitFor(),
  withdrawals: (p) => p.locator('.history-row[data-row]').first().waitFor(),
  deposits: (p) => p.locator('.history-row[data-row]').first().waitFor(),
  transfers: (p) => p.locator('.history-row[data-row]').first().waitFor(),
  orders: (p) => p.getByTestId('order-book').waitFor(),
  payouts: (p) => p.getByRole('heading', { level: 1, name: 'Payouts' }).waitFor(),
  'small-balances': (p) => p.getByTestId('dust-total').waitFor(),
  rebalance: (p) => p.getByRole('button', { name: 'Read balances' }).waitFor(),
  approvals: (p) => p.getByTestId('approval-item').first().waitFor(),
  statements: (p) => p.getByRole('button', { name: 'Build statement' }).waitFor(),
  journal: (p) => p.locator('[data-entry]').first().waitFor(),
  activity: (p) => p.getByTestId('intents').waitFor(),
  settings: (p) => p.getByTestId('vault').waitFor(),
};

// Page scripts are strings: this side of the tests is type-checked for Node, without the DOM's types.
/** What breaks the layout rule on the page as drawn, in words (empty: it holds). */
const LAYOUT_PROBLEMS = `(() => {
  const vw = document.documentElement.clientWidth;
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
    ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  const se = document.scrollingElement;
  if (se.scrollWidth > se.clientWidth) problems.push('the page scrolls sideways by ' + (se.scrollWidth - se.clientWidth) + ' px');
  const main = document.querySelector('main');
  const clippers = (el) => {
    const found = [];
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') found.push(a);
    }
    return found;
  };
  const wide = [], cut = [];
  for (const el of main.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const boxes = clippers(el);
    const box = boxes[0];
    // Wider than the window, unless inside a box of its own that clips or scrolls it within the window.
    if (r.right > vw + 0.5 && !boxes.some((b) => b.getBoundingClientRect().right <= vw + 0.5)) wide.push(name(el) + ' reaches ' + Math.round(r.right) + ' px');
    const s = getComputedStyle(el);
    const title = (el.closest('[title]') && el.closest('[title]').getAttribute('title')) || el.getAttribute('aria-label') || '';
    const text = (el.textContent || '').trim();
    // Cut short (an ellipsis, or a control that runs past the box that clips it): its whole text on hover.
    const ellipsed = s.textOverflow === 'ellipsis' && s.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1;
    const control = (el.tagName === 'A' || el.tagName === 'BUTTON') && box && getComputedStyle(box).overflowX !== 'auto' &&
      getComputedStyle(box).overflowX !== 'scroll' && r.right > box.getBoundingClientRect().right + 1;
    if ((ellipsed || control) && text && !title.includes(text)) cut.push(name(el) + ' is cut without its whole text on hover');
  }
  problems.push(...wide.slice(0, 4), ...cut.slice(0, 4));
  // A status's code is never cut: the cell keeps room for it (its meaning may give way, whole on hover).
  for (const b of main.querySelectorAll('.status-badge')) {
    const code = b.querySelector('.status-code');
    const cell = b.parentElement;
    if (!code) { problems.push(name(b) + ' has no status code part'); break; }
    if (code.scrollWidth > code.clientWidth + 1 || code.getBoundingClientRect().right > cell.getBoundingClientRect().right + 0.5 ||
        cell.scrollWidth > cell.clientWidth + 1) {
      problems.push('the status ' + name(code) + ' is cut in its cell (' + cell.clientWidth + ' px)');
      break;
    }
  }
  // The status bar: one row (every visible part beside the others), nothing of it cut off or hidden below.
  const bar = document.querySelector('footer.statusbar');
  const parts = [...bar.querySelectorAll('.statusbar-parts > *, .statusbar-more > button')]
    .filter((c) => getComputedStyle(c).visibility !== 'hidden' && !c.hidden).filter((c) => c.getBoundingClientRect().width > 0)
    .map((c) => [c, c.getBoundingClientRect()]);
  // What does not fit the line waits behind "more": the button says how many.
  const overflow = bar.querySelectorAll('.statusbar-overflow').length;
  const more = bar.querySelector('.statusbar-more > button');
  if (overflow && (!more || more.hidden || more.textContent !== overflow + ' more')) problems.push(overflow + ' status parts are hidden without a "more" button');
  const lowestTop = Math.max(...parts.map(([, r]) => r.top)), highestBottom = Math.min(...parts.map(([, r]) => r.bottom));
  if (lowestTop >= highestBottom) problems.push('the status bar takes more than one line (' + Math.round(bar.getBoundingClientRect().height) + ' px high)');
  if (bar.scrollWidth > bar.clientWidth + 1) problems.push('the status bar is cut by ' + (bar.scrollWidth - bar.clientWidth) + ' px');
  for (const [c, r] of parts) if (r.right > bar.getBoundingClientRect().right + 0.5 || r.left < 0) problems.push('the status bar part ' + name(c) + ' lies outside it');
  return problems;
})()`;

describe('every page fits the window on the large world', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  const longUids: string[] = [];

  beforeAll(async () => {
    desk = await startDesk({ sandboxArgs: ['--world', 'bench', '--no-limits'], sandboxTimeoutMs: 110_000, coolingOffMs: 0 });
    const creds = desk.sandbox.credentialsPath;
    for (const login_name of LONG_NAMES) {
      const sub = await sandboxSend<{ user_id: number }>(creds, 'POST', '/sub_accounts', { login_name, remark: LONG_REMARK });
      longUids.push(String(sub.user_id));
      // The largest figures the world holds, so that the long name sits beside long numbers.
      await sandboxSend(creds, 'POST', '/wallet/sub_account_transfers', {
        sub_account: String(sub.user_id),
        currency: 'USDT',
        amount: '987654.12345678',
        direction: 'to',
      });
    }
    // The bench world saves no addresses: the Approvals queue's widest row needs one to withdraw to.
    const mainUid = readSandboxCredentials(creds).main.uid;
    await sandboxAdmin(creds, 'POST', `/accounts/${mainUid}/saved_addresses`, {
      currency: 'USDT',
      chain: 'ETH',
      address: '0x9f8A2cD41b7E03a5F6c2D8e1B4a7C0f3E5d6B2a1',
      verified: '1',
    });
    await seedLargest(desk);
    // A withdrawal waiting for review, so that Activity has a row with its actions to lay out.
    const prepared = await desk.core.invoke('writePrepare', {
      write: {
        kind: 'withdrawal',
        input: { currency: 'USDT', chain: 'ETH', address: '0x9f8A2cD41b7E03a5F6c2D8e1B4a7C0f3E5d6B2a1', amount: '1234.5' },
      },
    });
    expect(prepared.ok).toBe(true);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('the longest names are of the longest length the Sandbox takes', () => {
    expect(LONG_NAMES.map((n) => n.length)).toEqual([32, 32]);
    expect(LONG_REMARK.length).toBe(128);
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`fits every page at 1024×700 and 1280×800 in the ${theme} theme`, async () => {
      const context = await browser.newContext({ viewport: { width: 1024, height: 700 }, colorScheme: theme });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(desk.host.url);
      await page.getByTestId('total-amount').waitFor();
      const links = page.getByRole('navigation', { name: 'Pages' }).getByRole('link');
      const pages = (await links.evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent]))).map(([href, title]) => ({
        path: String(href).replace(/^#\//, '') as PagePath,
        title: String(title),
      }));
      expect(pages.map((p) => p.path).sort()).toEqual(Object.keys(READY).sort());
      const failures: string[] = [];
      const check = async (where: string) => {
        expect(await page.evaluate<string>('document.documentElement.dataset.theme')).toBe(theme);
        for (const p of await page.evaluate<string[]>(LAYOUT_PROBLEMS)) failures.push(`${where}: ${p}`);
      };
      for (const viewport of [
        { width: 1024, height: 700 },
        { width: 1280, height: 800 },
      ]) {
        await page.setViewportSize(viewport);
        const size = `${viewport.width}×${viewport.height}`;
        for (const p of pages) {
          await page.getByRole('link', { name: p.title, exact: true }).click();
          await page.getByRole('heading', { level: 1, name: p.title }).waitFor();
          await READY[p.path](page);
          await check(`${p.path} at ${size}`);
          if (p.path === 'withdrawals') {
            await page.locator('.history-row[data-row]').first().click();
            await page.locator('aside[data-detail]').getByTestId('detail-address').waitFor();
            await check(`withdrawals with a detail open at ${size}`);
            await page.locator('aside[data-detail]').getByRole('button', { name: 'Close' }).click();
            if (viewport.width === 1024) {
              // The status parts that do not fit are read behind "more", whole.
              const bar = page.getByRole('contentinfo', { name: 'Status' });
              const hidden = await bar.locator('.statusbar-overflow').allTextContents();
              if (!hidden.length) failures.push(`withdrawals at ${size}: the status bar holds every part, none behind "more"`);
              else {
                const more = bar.getByRole('button', { name: `${hidden.length} more` });
                await more.click();
                expect(await more.getAttribute('aria-expanded')).toBe('true');
                const listed = await bar.getByRole('list', { name: 'More status' }).getByRole('listitem').allTextContents();
                expect(listed).toHaveLength(hidden.length);
                // The request budget and the connection's age change as they are read; the other parts are read as they were.
                const steady = await bar
                  .locator('.statusbar-overflow:not([data-testid="rate-limits"]):not([data-testid="connection"])')
                  .allTextContents();
                for (const text of steady) expect(listed).toContain(text);
                await page.keyboard.press('Escape');
                expect(await more.getAttribute('aria-expanded')).toBe('false');
              }
            }
          }
          if (p.path === 'sub-accounts') {
            await page.goto(`${desk.host.origin}/#/sub-accounts/${longUids[1]}`);
            await page.getByTestId('sub-account-title').filter({ hasText: LONG_NAMES[1] }).waitFor();
            await page.getByTestId('detail-total').waitFor();
            await check(`the sub-account ${LONG_NAMES[1]} at ${size}`);
          }
        }
      }
      expect(failures).toEqual([]);
      await context.close();
    });
  }
});
