import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, ROOT, startDesk, type DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// Money leaving the account, as people do it: one drafts in the main window, operators sign in the
// confirmation page (its own origin under the web host), the Sandbox is checked with the test's own
// signer. The desk runs with a cooling-off of 0 so that operators added here count at once.

const SHOTS = join(ROOT, 'resources', 'screenshots');
const PASS: Record<string, string> = { Alice: 'alice passphrase 1', Bob: 'bob passphrase 22', Carol: 'carol passphrase 3' };

type Withdrawal = { id: string; withdraw_order_id: string; status: string };

describe('Approvals: drafts, signatures, freeze', () => {
  let desk: DeskUnderTest;
  let browser: Browser;
  let page: Page;
  let confirm: Page;
  let admin: { url: string; token: string };

  const atExchange = async (ids: string[]): Promise<Withdrawal[]> => {
    const now = Math.floor(Date.now() / 1000);
    const all = await sandboxGet<Withdrawal[]>(
      desk.sandbox.credentialsPath,
      '/wallet/withdrawals',
      `from=${now - 3600}&to=${now + 60}&limit=1000`,
    );
    return all.filter((w) => ids.includes(w.withdraw_order_id));
  };

  /** Signs the ticket waiting in the confirmation page (the one matching `title`) as `who`; answers the page's message. */
  const sign = async (who: string, title?: RegExp): Promise<string> => signTicket(await waitingTicket(confirm, title), who, PASS[who]!);

  beforeAll(async () => {
    desk = await startDesk({ coolingOffMs: 0 });
    const creds = readSandboxCredentials(desk.sandbox.credentialsPath);
    admin = { url: creds.admin_url, token: creds.admin_token };
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
    ({ page, confirm } = await openWindows(
      browser,
      { host: desk.host.url, confirm: desk.confirm.url },
      { viewport: { width: 1280, height: 900 } },
    ));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  it('makes the first operator in the confirmation page, and a blocked destination cannot be sent', async () => {
    await createFirstOperator(confirm, 'Alice', PASS.Alice!);

    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByRole('button', { name: 'New withdrawal' }).click();
    // The form sits above the withdrawal history, whose filters have their own Currency and Chain.
    const form = page.getByRole('form', { name: 'New withdrawal' });
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByLabel('Chain').selectOption('TRX');
    await form.getByLabel('A new address').check();
    await form.getByLabel('New address', { exact: true }).fill('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
    await form.getByLabel('Amount').fill('20');
    await page.getByTestId('arrives').waitFor();
    await page.screenshot({ path: join(SHOTS, 'withdraw-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Review' }).click();
    await expect.poll(() => page.getByTestId('verdict').textContent()).toContain('Blocked by rule unknown-destination');
    expect(await page.getByRole('button', { name: 'Send for signing' }).count()).toBe(0);
    // And from the channel the page would use, too.
    const refused = await desk.core.invoke('approvalsDraft', {
      write: { kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', amount: '20' } },
    });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/blocks this withdrawal/) } });
  }, 60_000);

  it('freeze stops a queued batch, cancels what can be cancelled, and holds the rest until unfrozen', async () => {
    const saved = (
      await sandboxGet<{ chain: string; address: string; verified: string; name: string }[]>(
        desk.sandbox.credentialsPath,
        '/wallet/saved_address',
        'currency=USDT',
      )
    ).find((s) => s.chain === 'TRX' && s.verified === '1')!;
    // A batch of five, drafted as the form would draft them, each signed by Alice (the default policy: one signature).
    const refs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const t = await desk.core.invoke('approvalsDraft', {
        write: { kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address: saved.address, amount: `${11 + i}` } },
      });
      expect(t.ok).toBe(true);
    }
    const tickets = (
      (await desk.core.invokeConfirm('confirmState', {})) as {
        ok: true;
        data: { tickets: { id: string; ref: string }[]; operators: { id: string }[] };
      }
    ).data;
    // Signed together: one after another, five passphrase checks on a busy machine can outlast the 12 s
    // §8.2's pace needs to send all five, and the batch would be gone before Freeze.
    refs.push(...tickets.tickets.map((t) => t.ref));
    const signed = await Promise.all(
      tickets.tickets.map((t) =>
        desk.core.invokeConfirm('confirmSign', { ticket: t.id, operator: tickets.operators[0]!.id, passphrase: PASS.Alice }),
      ),
    );
    expect(signed.map((r) => r.ok)).toEqual([true, true, true, true, true]);
    // At §8.2's pace (one withdrawal per 3 s) most of the batch is still queued: Alice presses Freeze.
    await page.getByRole('button', { name: 'Freeze' }).click();
    expect(await sign('Alice', /Freeze the desk/)).toMatch(/Signed: Freeze the desk/);
    await expect.poll(() => page.getByTestId('freeze-banner').textContent()).toMatch(/Frozen by Alice/);
    const sentBefore = (await atExchange(refs)).length;
    expect(sentBefore).toBeLessThan(5);
    // Held, not merely slow: wait until the status bar's withdrawal bucket has left its list (nothing queued,
    // in flight or paused, and §8.2's 3 s window empty: the desk could send a withdrawal now), then the
    // exchange still holds no more. The tooltip lists every bucket in use, those past the first few too.
    await expect
      .poll(async () => (await page.getByTestId('rate-limits').getAttribute('title')) ?? '', { timeout: 30_000 })
      .not.toMatch(/^\/withdrawals \d/m);
    expect((await atExchange(refs)).length).toBe(sentBefore);

    await page.getByRole('link', { name: 'Approvals' }).click();
    // The Sandbox's statuses that still allow a cancellation (its own choice; §3.1 lists none).
    const open = (await atExchange(refs)).filter((w) => ['REQUEST', 'REVIEW', 'MANUAL', 'FVERIFY'].includes(w.status)).length;
    expect(open).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('button', { name: /^Cancel all/ }).textContent()).toBe(`Cancel all ${open}`);
    await page.getByRole('button', { name: /^Cancel all/ }).click();
    await expect
      .poll(async () => (await atExchange(refs)).filter((w) => w.status === 'CANCELPEND' || w.status === 'CANCEL').length, {
        timeout: 20_000,
      })
      .toBe(open);
    expect(
      await page
        .getByTestId('item-state')
        .filter({ hasText: /^approved/ })
        .count(),
    ).toBe(5 - sentBefore);

    // A quorum (one operator under the default policy) unfreezes; the held withdrawals then leave, once each.
    await page.getByRole('button', { name: 'Propose to unfreeze' }).click();
    expect(await sign('Alice', /Unfreeze/)).toMatch(/Signed/);
    await expect.poll(async () => (await atExchange(refs)).length, { timeout: 40_000 }).toBe(5);
  }, 120_000);

  it("a withdrawal needing two approvals goes from draft to DONE with three operators; the drafter's own approval is refused", async () => {
    for (const who of ['Bob', 'Carol']) {
      await confirm.getByRole('group', { name: 'Propose an operator' }).evaluate((d) => {
        (d as unknown as { open: boolean }).open = true;
      });
      await confirm.getByLabel('New operator name').fill(who);
      await confirm.getByLabel("New operator's passphrase").fill(PASS[who]!);
      await confirm.getByLabel('Proposed by').selectOption({ label: 'Alice' });
      await confirm.getByLabel("Proposer's passphrase").fill(PASS.Alice!);
      await confirm.getByRole('button', { name: 'Propose operator' }).click();
      await confirm.getByText(`Operator ${who} proposed`).waitFor();
    }
    await page.getByRole('link', { name: 'Approvals' }).click();
    // The rule is added as a row of the editor and moved above the catch-all, since the first match decides.
    await page.getByText('Propose a new policy').click();
    const editor = page.getByRole('form', { name: 'Policy editor' });
    await editor.getByRole('button', { name: 'Add rule' }).click();
    const added = editor.getByTestId('policy-rule').last();
    await added.getByLabel('Id', { exact: true }).fill('two-other-operators');
    await added.getByLabel('Withdrawals', { exact: true }).check();
    await added.getByLabel('Approvals', { exact: true }).fill('2');
    await expect.poll(() => added.getByTestId('rule-sentence').textContent()).toBe('Withdrawals need 2 approvals, not by the drafter.');
    // What the rule does to the change quorum is said beside it, before Propose.
    expect(await added.getByTestId('rule-change-quorum').textContent()).toBe(
      "This rule needs 2 approvals, so operator, role and policy changes will need 2 admins' approvals too under this policy (now 1).",
    );
    await editor.getByRole('button', { name: 'Move rule two-other-operators up' }).click();
    await expect
      .poll(() => editor.getByTestId('rule-sentence').allTextContents())
      .toEqual([
        'Order cancellations or cancellations of all orders of a pair are allowed without approval.',
        'Withdrawals or UID transfers to an unknown destination are blocked.',
        'Withdrawals need 2 approvals, not by the drafter.',
        'Every other write needs 1 approval, which the drafter may give.',
      ]);
    // What the proposal would have done with the last 30 days, before it is proposed: the Sandbox's seeded
    // withdrawals, none sent by this desk.
    await expect.poll(() => editor.getByTestId('policy-replay').textContent()).toMatch(/Replayed against \d+ requests/);
    await page.screenshot({ path: join(SHOTS, 'policy-editor.png'), fullPage: true });
    await editor.getByRole('button', { name: 'Propose this policy' }).click();
    // The same replay beside the change in the confirmation window, before anyone signs it.
    const change = await waitingTicket(confirm, /Change the policy/);
    await expect.poll(() => change.getByTestId('policy-replay').textContent()).toMatch(/Replayed against \d+ requests/);
    await confirm.screenshot({ path: join(SHOTS, 'policy-confirm.png'), fullPage: true });
    expect(await sign('Alice', /Change the policy/)).toMatch(/Signed/);
    // In force once signed: the policy in force lists it (the editor's own rows name it from the start).
    await expect
      .poll(() =>
        page
          .getByRole('listitem')
          .filter({ hasText: /^two-other-operators: Withdrawals need 2 approvals, not by the drafter\.$/ })
          .count(),
      )
      .toBe(1);

    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByRole('button', { name: 'New withdrawal' }).click();
    const form = page.getByRole('form', { name: 'New withdrawal' });
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByLabel('Chain').selectOption('TRX');
    await form.getByText('Cold wallet TRC20').click();
    await form.getByLabel('Amount').fill('25');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect
      .poll(() => page.getByTestId('verdict').textContent())
      .toContain('Needs 2 approvals (rule two-other-operators, not by the drafter)');
    await page.screenshot({ path: join(SHOTS, 'withdraw-review.png'), fullPage: true });
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByTestId('awaiting-signature').waitFor();
    await confirm.getByTestId('ticket').first().waitFor();
    await confirm.screenshot({ path: join(SHOTS, 'confirmation-window.png'), fullPage: true });
    expect(await sign('Alice', /Draft a withdrawal/)).toMatch(/Signed/);

    await page.getByRole('link', { name: 'Approvals' }).click();
    const row = page.getByTestId('approval-item').filter({ hasText: '25 USDT' });
    await expect.poll(() => row.textContent()).toContain('2 more');
    await row.getByRole('button', { name: 'Approve' }).click();
    expect(await sign('Alice', /Approve a request/)).toMatch(/Alice drafted this request/);
    await confirm.getByTestId('ticket').first().getByRole('button', { name: 'Decline' }).click();

    await row.getByRole('button', { name: 'Approve' }).click();
    expect(await sign('Bob', /Approve a request/)).toMatch(/Signed/);
    await expect.poll(() => row.textContent()).toContain('1 more');
    await page.screenshot({ path: join(SHOTS, 'approvals-page.png'), fullPage: true });
    await row.getByRole('button', { name: 'Approve' }).click();
    expect(await sign('Carol', /Approve a request/)).toMatch(/Signed/);
    await expect.poll(() => row.getByTestId('item-state').textContent(), { timeout: 20_000 }).toContain('sent');

    const intents = (await desk.core.invoke('intentsList', {})) as {
      ok: true;
      data: { items: { id: string; body: { amount: string }; exchange_id?: string; state: string; signatures?: { name: string }[] }[] };
    };
    const intent = intents.data.items.find((i) => i.body.amount === '25')!;
    expect(intent.signatures?.map((s) => s.name)).toEqual(['Alice', 'Bob', 'Carol']);
    await expect.poll(async () => (await atExchange([intent.id])).length, { timeout: 20_000 }).toBe(1);
    const w = (await atExchange([intent.id]))[0]!;
    const moved = await fetch(`${admin.url}/withdrawals/${w.id}/status`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'DONE' }),
    });
    expect(moved.ok).toBe(true);
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect.poll(() => page.locator(`[data-intent="${intent.id}"]`).getAttribute('data-state'), { timeout: 40_000 }).toBe('done');
  }, 180_000);

  it('a past item keeps the rule, quorum and policy that decided it after a stricter policy came into force', async () => {
    await page.getByRole('link', { name: 'Approvals' }).click();
    await expect.poll(() => page.getByTestId('change-quorum-now').textContent()).toMatch(/need 2 approvals/);
    const decided = (hasText: string) => page.getByTestId('approval-item').filter({ hasText }).getByTestId('decided');
    // Sent with Alice's one signature under the default policy, before two-other-operators: not relabelled by it.
    expect(await decided('11 USDT to').textContent()).toBe('confirm-every-write · quorum 1 · the default policy');
    expect(await decided('add operator Bob').textContent()).toBe('confirm-every-write · quorum 1 · the default policy');
    // Sent under the new policy with two others' approvals.
    const policyRef = (await desk.core.invoke('approvalsState', {})) as { ok: true; data: { policy: { ref: string } } };
    expect(await decided('25 USDT to').textContent()).toBe(`two-other-operators · quorum 2 · policy v1 (${policyRef.data.policy.ref})`);
  }, 60_000);

  it('a read-only profile cannot reach the send button', async () => {
    const creds = readSandboxCredentials(desk.sandbox.credentialsPath);
    expect((await desk.core.invoke('vaultSetPassphrase', { next: 'desk passphrase for e2e' })).ok).toBe(true);
    const saved = await desk.core.invoke('profileSave', {
      name: 'Read-only key',
      environment: 'futures',
      base_url: creds.base_url,
      svc: 'Svc',
      key: creds.read_only.key,
      secret: creds.read_only.secret,
      permissions: { spot: 'read', futures: 'none', delivery: 'none', wallet: 'read', withdraw: 'read', unified: false },
      sub_keys: [],
    });
    expect(saved.ok).toBe(true);
    await desk.core.invoke('profileSelect', { id: (saved as { data: { id: string } }).data.id });
    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await expect.poll(() => page.getByTestId('cannot-send').textContent()).toMatch(/cannot withdraw/);
    expect(await page.getByRole('button', { name: 'New withdrawal' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send for signing' }).count()).toBe(0);
  }, 60_000);
});
