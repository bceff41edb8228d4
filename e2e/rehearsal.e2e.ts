import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';

// Rehearsing a team from Settings (docs/team.md §Rehearsing a team), as two operators do it: at desk A,
// "Invite a desk" shows the code; at desk B (its own Sandbox), a bad code is refused naming the problem,
// and A's code moves B's Sandbox profile to A's Sandbox. No team store here: the code names none.

describe('Settings: rehearse a team', () => {
  let a: DeskUnderTest;
  let b: DeskUnderTest;
  let browser: Browser;
  let pageA: Page;
  let pageB: Page;

  beforeAll(async () => {
    [a, b] = await Promise.all([startDesk({ coolingOffMs: 0 }), startDesk({ coolingOffMs: 0 })]);
    browser = await launchBrowser();
    pageA = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    pageB = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const p of [pageA, pageB]) p.setDefaultTimeout(30_000);
    await pageA.goto(a.host.url);
    await pageB.goto(b.host.url);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await a?.stop();
    await b?.stop();
  });

  it('invites a desk at A and joins with the code at B', async () => {
    await pageA.getByRole('link', { name: 'Settings' }).click();
    const cardA = pageA.getByTestId('rehearsal');
    await cardA.getByRole('button', { name: 'Invite a desk' }).click();
    const code = await cardA.getByTestId('rehearsal-invitation').inputValue();
    expect(code).toMatch(/^tdrh1\.[A-Za-z0-9_-]+$/);
    expect(await cardA.getByRole('status').textContent()).toContain('this desk is in no team yet');

    await pageB.getByRole('link', { name: 'Settings' }).click();
    const cardB = pageB.getByTestId('rehearsal');
    await cardB.getByLabel(/^Invitation/).fill(code.replace(/^tdrh1\./, 'tdrh2.'));
    await cardB.getByRole('button', { name: 'Join a rehearsal' }).click();
    await expect.poll(() => cardB.getByRole('alert').textContent()).toMatch(/not a rehearsal invitation: it should start with tdrh1\./);

    await cardB.getByLabel(/^Invitation/).fill(code);
    await cardB.getByRole('button', { name: 'Join a rehearsal' }).click();
    await expect
      .poll(() => cardB.getByTestId('rehearsal-joined').textContent())
      .toMatch(/^The Sandbox profile now trades on http:\/\/127\.0\.0\.1:\d+\/api\/v4\. The invitation names no team store\.$/);
    const joined = (await cardB.getByTestId('rehearsal-joined').textContent())!;
    const aCurrent = (await a.core.invoke('profileCurrent', {})) as { data: { base_url: string } };
    const bCurrent = (await b.core.invoke('profileCurrent', {})) as { data: { base_url: string } };
    expect(joined).toContain(aCurrent.data.base_url);
    expect(bCurrent.data.base_url).toBe(aCurrent.data.base_url);
  }, 90_000);
});
