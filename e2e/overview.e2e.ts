import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxAdmin, sandboxGet } from './sandboxApi.ts';
import { holdBootChunk } from './heldBoot.ts';

type Total = { total: { amount: string; currency: string }; details: Record<string, { amount: string }> };

describe('Overview in a real browser over the web host and a real Sandbox', () => {
  let desk: DeskUnderTest;
  let browser: Browser;

  beforeAll(async () => {
    desk = await startDesk();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it("shows the Sandbox's total balance and its breakdown by account type", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });

    await page.goto(desk.host.url);
    const amount = page.getByTestId('total-amount');
    await amount.waitFor();

    const expected = await sandboxGet<Total>(desk.sandbox.credentialsPath, '/wallet/total_balance', 'currency=USDT');
    expect((await amount.textContent())!.replaceAll(',', '')).toBe(expected.total.amount);
    expect(await page.getByTestId('total-currency').textContent()).toBe('USDT');

    for (const [type, d] of Object.entries(expected.details)) {
      const row = page.locator(`[data-account-type="${type}"] td.num`).first();
      expect((await row.textContent())!.replaceAll(',', '')).toBe(d.amount);
    }
    // recharts drew one bar per account type.
    await expect
      .poll(() => page.locator('[data-testid="breakdown-chart"] .recharts-bar-rectangle').count())
      .toBe(Object.keys(expected.details).length);
    // The token left the address bar once read.
    expect(page.url()).not.toContain('token=');

    expect(problems).toEqual([]);
  });

  it("paints the total from the boot's own files: the page's code fetched beside them, no schema library", async () => {
    const context = await browser.newContext();
    // At the frame that first shows the total: which files the window had asked for, and when.
    await context.addInitScript(`(() => {
      const tick = () => {
        if (!document.querySelector('[data-testid="total-amount"]')) return requestAnimationFrame(tick);
        window.__atPaint = performance.getEntriesByType('resource').map((r) => ({ name: new URL(r.name).pathname, start: r.startTime }));
      };
      requestAnimationFrame(tick);
    })()`);
    const page = await context.newPage();
    try {
      await page.goto(desk.host.url);
      await page.getByTestId('total-amount').waitFor();
      await expect.poll(() => page.evaluate('window.__atPaint !== undefined')).toBe(true);
      const asked = (await page.evaluate('window.__atPaint')) as Array<{ name: string; start: number }>;
      const names = asked.map((r) => r.name);
      // zod and the contract's schemas are for the pages with forms: building them held up the first paint.
      expect(names.filter((n) => /\/assets\/(zod|money|zodWords)-/.test(n))).toEqual([]);
      // The Overview's chunk is named in index.html: asked for before the boot's code ran and asked the core anything.
      const chunk = asked.find((r) => /\/assets\/OverviewPage-[^/]+\.js$/.test(r.name));
      const firstCall = asked.find((r) => r.name.startsWith('/rpc/'));
      expect(chunk).toBeDefined();
      expect(firstCall).toBeDefined();
      expect(chunk!.start).toBeLessThan(firstCall!.start);
    } finally {
      await context.close();
    }
  });

  it("sends the first paint's reads before the app's code runs, and does not send them twice", async () => {
    const context = await browser.newContext();
    const release = await holdBootChunk(context);
    const page = await context.newPage();
    const asked: string[] = [];
    let painted = false;
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (!pathname.startsWith('/rpc/') || painted) return;
      const body = r.postDataJSON() as { channel?: string } | null;
      asked.push(pathname === '/rpc/lastKnown' ? `lastKnown ${body?.channel}` : pathname.slice('/rpc/'.length));
    });
    try {
      await page.goto(desk.host.url, { waitUntil: 'commit' });
      await expect.poll(() => asked).toEqual(['profileCurrent', 'lastKnown totalBalance']);
      release();
      await page.getByTestId('total-amount').waitFor();
      painted = true;
      // The app took the answers of those reads: each was asked once before the total was painted.
      expect(asked.filter((a) => a === 'lastKnown totalBalance')).toHaveLength(1);
      expect(asked.filter((a) => a === 'profileCurrent')).toHaveLength(1);
      expect(asked).toContain('totalBalance');
    } finally {
      release();
      await context.close();
    }
  });

  it('revalues the total when the operator picks another currency', async () => {
    const page = await browser.newPage();
    await page.goto(desk.host.url);
    await page.getByTestId('total-amount').waitFor();
    await page.getByRole('button', { name: 'BTC' }).click();
    await expect.poll(() => page.getByTestId('total-currency').textContent()).toBe('BTC');
    const expected = await sandboxGet<Total>(desk.sandbox.credentialsPath, '/wallet/total_balance', 'currency=BTC');
    expect((await page.getByTestId('total-amount').textContent())!.replaceAll(',', '')).toBe(expected.total.amount);
  });

  it('paints the last known total at once on the next opening, marked with its age, and keeps it beside a failure', async () => {
    const page = await browser.newPage();
    await page.goto(desk.host.url);
    const amount = page.getByTestId('total-amount');
    await expect.poll(() => page.locator('[data-last-known] [data-testid="total-amount"]').count()).toBe(0);
    const read = await amount.textContent();
    // The exchange stops answering the total; the window is opened again.
    await sandboxAdmin(desk.sandbox.credentialsPath, 'POST', '/faults', {
      kind: 'error',
      status: 503,
      label: 'SERVER_ERROR',
      path: '/wallet/total_balance',
    });
    try {
      await page.reload();
      await page.getByTestId('total-last-known').waitFor();
      expect(await amount.textContent()).toBe(read);
      expect(await page.getByTestId('total-last-known').textContent()).toMatch(
        /^Last known figures, read .+ \((less than a minute|\d+ minutes?) ago\)/,
      );
      await expect
        .poll(() => page.getByTestId('total-last-known').textContent(), { timeout: 30_000 })
        .toContain('the exchange did not answer');
      await page.getByRole('alert').waitFor();
    } finally {
      await sandboxAdmin(desk.sandbox.credentialsPath, 'DELETE', '/faults');
    }
    await page.getByRole('alert').getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('total-last-known').waitFor({ state: 'detached' });
    expect(await page.locator('[data-last-known] [data-testid="total-amount"]').count()).toBe(0);
  });

  it('refuses calls without the token and from another origin', async () => {
    const noToken = await fetch(`${desk.host.origin}/rpc/totalBalance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(noToken.status).toBe(401);
    const foreign = await fetch(`${desk.host.origin}/rpc/totalBalance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${desk.host.token}`, Origin: 'http://evil.example' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    const page = await browser.newPage();
    // A page on another origin cannot read the desk even with the token: CORS is never granted.
    await page.goto('about:blank');
    const leaked = await page.evaluate(
      async ([origin, token]) => {
        try {
          const r = await fetch(`${origin}/rpc/totalBalance`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
            body: '{}',
          });
          return await r.text();
        } catch {
          return 'blocked';
        }
      },
      [desk.host.origin, desk.host.token] as const,
    );
    expect(leaked).toBe('blocked');
  });
});
