import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from '../electron/core/client/client.ts';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// A compromised sub-account contained from one page, as an operator does it: the incident page shows
// what it holds and does, one click drafts the whole sequence, one signature in the confirmation page
// approves it, and the page follows each step to its end. The Sandbox's own records judge the result:
// locked, no open order, its balance at the main account, each currency swept once; the matrix says Locked.

const SHOTS = join(ROOT, 'resources', 'screenshots');
const PASS = 'alice passphrase 1';

describe('Incident page against the Sandbox', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let confirm: Page;

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
    ({ page, confirm } = await openWindows(
      browser,
      { host: desk.host.url, confirm: desk.confirm.url },
      { viewport: { width: 1280, height: 1000 } },
    ));
    await createFirstOperator(confirm, 'Alice', PASS);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('contains a sub-account with one confirmation: locked, no open orders, balance at main, each step once', async () => {
    const creds = readSandboxCredentials(desk.sandbox.credentialsPath);
    const sub = creds.sub_accounts[2]!;
    const uid = sub.uid;
    const client = new ApiClient({ baseUrl: creds.base_url, credentials: { key: sub.key, secret: sub.secret } });
    await client.request(
      {
        method: 'POST',
        path: '/spot/orders',
        body: {
          currency_pair: 'BTC_USDT',
          side: 'buy',
          type: 'limit',
          amount: '0.001',
          price: '50000',
          time_in_force: 'gtc',
          account: 'spot',
        },
      },
      z.looseObject({}),
    );

    await page.evaluate(
      (h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h),
      `#/sub-accounts/${uid}/incident`,
    );
    await page.getByRole('heading', { name: new RegExp(`Incident: sub-account ${uid}`) }).waitFor();
    await page.getByTestId('incident-orders').getByText('buy 0.001 BTC_USDT at 50000').waitFor();
    await page.getByTestId('incident-balances').waitFor();
    const steps = await page.getByTestId('incident-steps').locator('li').allTextContents();
    expect(steps).toContain('cancel all BTC_USDT orders');
    expect(steps).toContain('lock the sub-account');
    expect(steps.some((s) => /^sweep .* USDT to main$/.test(s))).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'incident.png') });

    await page.getByRole('button', { name: 'Contain: send for signing' }).click();
    await page.getByText(/Contain sub-account .*: sign it in the confirmation window\./).waitFor();
    const card = await waitingTicket(confirm, /Contain sub-account/);
    expect(await signTicket(card, 'Alice', PASS)).toMatch(/^Signed: /);

    const progress = page.getByRole('region', { name: 'Containment progress' });
    await expect.poll(() => progress.getByTestId('incident-run-state').first().textContent(), { timeout: 60_000 }).toBe('Finished');
    const states = await progress.getByTestId('step-state').allTextContents();
    const reasons = await progress.locator('li').allTextContents();
    expect(states, reasons.join('\n')).toEqual(steps.map(() => 'done'));
    await page.screenshot({ path: join(SHOTS, 'incident-contained.png') });

    const subs = await sandboxGet<{ user_id: number; state: number }[]>(desk.sandbox.credentialsPath, '/sub_accounts');
    expect(subs.find((s) => String(s.user_id) === uid)?.state).toBe(2);
    const db = new Database(join(desk.dataDir, 'sandbox', 'sandbox.sqlite'), { readonly: true });
    try {
      expect((db.prepare(`SELECT COUNT(*) AS n FROM spot_orders WHERE uid = ? AND status = 'open'`).get(uid) as { n: number }).n).toBe(0);
      const left = db.prepare(`SELECT available, locked FROM balances WHERE uid = ? AND account_type = 'spot'`).all(uid) as {
        available: string;
        locked: string;
      }[];
      // Everything that could move went to main; a balance the Sandbox seeded as held outside any order stays held.
      expect(left.filter((b) => Number(b.available) >= 1e-8)).toEqual([]);
      // The seeded history holds older transfers: the desk's sweeps are those carrying its ids, each once.
      const list = (await desk.core.invoke('intentsList', {})) as {
        ok: true;
        data: { items: { kind: string; client_id: string | null; body: Record<string, string> }[] };
      };
      const sweeps = list.data.items.filter((i) => i.kind === 'main_sub_transfer' && i.body.sub_account === uid);
      expect(sweeps.length).toBe(steps.filter((s) => s.startsWith('sweep ')).length);
      for (const w of sweeps)
        expect((db.prepare('SELECT COUNT(*) AS n FROM transfers WHERE client_order_id = ?').get(w.client_id) as { n: number }).n).toBe(1);
    } finally {
      db.close();
    }

    await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/sub-accounts'));
    await page.getByTestId(`locked-${uid}`).waitFor({ timeout: 30_000 });
    // Back on the incident page: locked, every key gone (the desk's own too), nothing left to do.
    await page.evaluate(
      (h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h),
      `#/sub-accounts/${uid}/incident`,
    );
    await page.getByTestId('nothing-to-contain').waitFor();
    expect(await page.getByTestId('incident-lock-state').textContent()).toBe('Locked at the exchange. ');
  }, 150_000);
});
