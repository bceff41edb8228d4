import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';

// The confirmation page and the main window load clean: no request answered with an error (a missing
// icon was one), and nothing logged as an error or a warning to the console (a duplicated CSP directive,
// or one a <meta> cannot carry, was one): what a browser's developer tools would show.

describe('the pages load without console errors or failed requests', () => {
  let desk: DeskUnderTest;
  let browser: Browser;

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  /** Loads `url` in a fresh page and answers what went wrong: failed requests and console errors or warnings. */
  async function problems(url: string, ready: (p: Page) => Promise<unknown>): Promise<string[]> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') seen.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) seen.push(`${r.status()} for ${new URL(r.url()).pathname}`);
    });
    page.on('requestfailed', (r) => seen.push(`request failed: ${new URL(r.url()).pathname} (${r.failure()?.errorText})`));
    await page.goto(url);
    await ready(page);
    // A headless browser asks for no icon: the page's own is fetched as a windowed one would (without one
    // declared, a browser asks /favicon.ico, which neither host serves).
    const icon = await page.evaluate<string | null>(`document.querySelector('link[rel~="icon"]')?.href ?? null`);
    if (!icon) seen.push('no icon declared: a browser asks /favicon.ico');
    else if ((await page.request.get(icon)).status() >= 400) seen.push(`the icon ${new URL(icon).pathname} is not served`);
    await page.close();
    return seen;
  }

  it('the confirmation page', async () => {
    expect(await problems(desk.confirm.url, (p) => p.getByRole('heading', { level: 1, name: /confirmation/ }).waitFor())).toEqual([]);
  }, 60_000);

  it('the main window', async () => {
    expect(await problems(desk.host.url, (p) => p.getByRole('heading', { level: 1, name: 'Overview' }).waitFor())).toEqual([]);
  }, 60_000);
});
