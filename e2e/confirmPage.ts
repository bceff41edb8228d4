import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';

// The confirmation page as operators use it, shared by the e2e tests that move money: the main window
// and the confirmation page side by side, the first operator made there, and a ticket signed there.

/**
 * The main window (`main` sets its viewport and the like) and the confirmation page, both loaded;
 * `beforeLoad` runs on the main window before it loads (an init script).
 */
export async function openWindows(
  browser: Browser,
  urls: { host: string; confirm: string },
  main: BrowserContextOptions,
  beforeLoad?: (page: Page) => Promise<void>,
): Promise<{ page: Page; confirm: Page }> {
  const page = await browser.newPage(main);
  await beforeLoad?.(page);
  const confirm = await browser.newPage({ viewport: { width: 760, height: 900 } });
  page.setDefaultTimeout(30_000);
  confirm.setDefaultTimeout(30_000);
  await confirm.goto(urls.confirm);
  await page.goto(urls.host);
  return { page, confirm };
}

/** A desk under test, a browser, the main window and the confirmation page, and the first operator made there. */
export interface OperatorDesk {
  desk: DeskUnderTest;
  browser: Browser;
  page: Page;
  confirm: Page;
  /** Closes the browser and stops the desk (and its Sandbox). */
  stop(): Promise<void>;
}

/** Starts a desk (cooling-off 0 unless `deskOpts` says), opens both windows at 1280×900 and makes `operator` there. */
export async function openOperatorDesk(
  operator: { name: string; passphrase: string },
  deskOpts: Parameters<typeof startDesk>[0] = {},
): Promise<OperatorDesk> {
  const desk = await startDesk({ coolingOffMs: 0, ...deskOpts });
  const browser = await launchBrowser();
  const { page, confirm } = await openWindows(
    browser,
    { host: desk.host.url, confirm: desk.confirm.url },
    { viewport: { width: 1280, height: 900 } },
  );
  await createFirstOperator(confirm, operator.name, operator.passphrase);
  return {
    desk,
    browser,
    page,
    confirm,
    stop: async () => {
      await browser.close();
      await desk.stop();
    },
  };
}

/** Makes the desk's first operator in the confirmation page, as the page offers while there is none. */
export async function createFirstOperator(confirm: Page, name: string, passphrase: string): Promise<void> {
  await confirm.getByLabel('Operator name').fill(name);
  await confirm.getByLabel('New operator passphrase').fill(passphrase);
  await confirm.getByRole('button', { name: 'Create operator' }).click();
  await confirm.getByText(`Operator ${name} created.`).waitFor();
}

/** The first ticket waiting in the confirmation page (the first whose text matches `title`, if given). */
export async function waitingTicket(confirm: Page, title?: RegExp): Promise<Locator> {
  const tickets = confirm.getByTestId('ticket');
  const card = (title ? tickets.filter({ hasText: title }) : tickets).first();
  await card.waitFor();
  return card;
}

/**
 * Signs `card` as operator `who`; answers the page's message: the card's alert, or the new log line once
 * the signed card has left the page (so that the next ticket looked for is not this one).
 */
export async function signTicket(card: Locator, who: string, passphrase: string): Promise<string> {
  await card.getByLabel('Operator').selectOption({ label: who });
  await card.getByLabel('Passphrase').fill(passphrase);
  const node = await card.elementHandle();
  const log = card.page().getByRole('log').locator('li');
  const before = await log.count();
  await card.getByRole('button', { name: 'Sign' }).click();
  const error = card.getByRole('alert');
  await expect.poll(async () => (await log.count()) > before || (await error.count()) > 0, { timeout: 30_000 }).toBe(true);
  if ((await error.count()) > 0) return (await error.textContent()) ?? '';
  await node.waitForElementState('hidden');
  await node.dispose();
  return (await log.last().textContent()) ?? '';
}
