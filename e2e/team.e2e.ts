import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresMissing, startPostgres, type TestPostgres } from '../electron/core/team/testkit/postgres.ts';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';

// Founding a team from Settings as an operator does it: the URL and password typed into the Team store
// card, the connection tested, "Found the team here", the first operator's signature in the confirmation
// page; then the card says which store the desk's approvals are on, and the Approvals page reads it.

const PASS = { Alice: 'alice passphrase 1' };
const DB_PASSWORD = 'e2e-Team-pg-5d20';
const missing = postgresMissing();

describe.skipIf(missing !== null)(`Settings: founding a team${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let desk: DeskUnderTest;
  let server: TestPostgres;
  let browser: Browser;
  let page: Page;
  let confirm: Page;

  beforeAll(async () => {
    server = await startPostgres('team', { password: DB_PASSWORD });
    desk = await startDesk({ coolingOffMs: 0 });
    browser = await launchBrowser();
    ({ page, confirm } = await openWindows(
      browser,
      { host: desk.host.url, confirm: desk.confirm.url },
      { viewport: { width: 1280, height: 900 } },
    ));
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
    await server?.destroy();
  });

  it('tests the store, founds the team through the confirmation page, and shows the store it is on', async () => {
    await createFirstOperator(confirm, 'Alice', PASS.Alice);
    await page.getByRole('link', { name: 'Settings' }).click();
    const card = page.getByTestId('team');
    await expect.poll(() => card.getByTestId('team-status').textContent()).toContain('no team store');

    await card.getByLabel('URL').fill(server.url);
    await card.getByLabel('Password').fill('not the password');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => card.getByTestId('team-test').textContent()).toMatch(/^The team store refused the password/);
    expect(await card.getByRole('button', { name: 'Found the team here' }).count()).toBe(0);

    await card.getByLabel('Password').fill(DB_PASSWORD);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => card.getByTestId('team-test').textContent()).toMatch(/the store is empty, a team can be founded in it\.$/);
    await card.getByRole('button', { name: 'Found the team here' }).click();
    await expect
      .poll(() => card.getByTestId('team-waiting').textContent())
      .toMatch(/^Waiting in the confirmation window: Found a team on /);

    const said = await signTicket(await waitingTicket(confirm, /Found a team on/), 'Alice', PASS.Alice);
    expect(said).not.toMatch(/error|refused/i);
    await expect
      .poll(() => card.getByTestId('team-status').textContent(), { timeout: 20_000 })
      .toMatch(
        new RegExp(`on the team store 127\\.0\\.0\\.1:${server.port}/team \\(founded here\\)\\.Pinned founding record: [0-9a-f]{64}Online`),
      );
    expect(await card.getByLabel('URL').count()).toBe(0);
    expect(await page.content()).not.toContain(DB_PASSWORD);

    await page.getByRole('link', { name: 'Approvals' }).click();
    await expect.poll(() => page.getByText('Alice').first().isVisible()).toBe(true);
  }, 120_000);
});
