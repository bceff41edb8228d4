import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../shared/ipc.ts';
import type { Notices } from '../../../shared/notices.ts';
import { ensureOperator, sendGoverned, TEST_OPERATOR } from '../approvals/testkit/governed.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';

// docs/histories.md §Notifications and notices: a notification when a withdrawal reaches a final status (the desk's own reached DONE
// with none when the desk first read it already done), when a batch finishes, and when an operator's
// signature is needed. Real core, real Sandbox.

let core: Core & ConfirmCore;
const notices: EventPayload<'notify'>[] = [];

const sb = useSandbox('notify', { limits: false });
beforeAll(async () => {
  core = openDesk({ home: join(sb.dir, 'home'), sandboxCredentialsPath: sb.credentialsPath, log: () => {}, coolingOffMs: 0 });
  core.subscribe((event, payload) => event === 'notify' && notices.push(payload as EventPayload<'notify'>));
  expect((await core.invoke('historySync', {})).ok).toBe(true);
});
afterAll(async () => {
  await core?.close();
});

describe('notifications of withdrawals', () => {
  it("tells the desk's own withdrawal that the desk first reads already done", async () => {
    const sent = await sendGoverned(core, {
      kind: 'withdrawal',
      input: { currency: 'USDT', chain: 'TRX', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', amount: '250' },
    });
    expect(sent).toMatchObject({ state: 'accepted' });
    // The journal keeps the number the create call answered; the records list it as "w<number>" (§2.3).
    const id = sent.exchange_id!.replace(/^w?/, 'w');
    await adminCall(sb.creds, 'POST', `/withdrawals/${sent.exchange_id!}/status`, { status: 'DONE' });
    await expect
      .poll(
        async () => {
          await core.invoke('historySync', {});
          return notices.find((n) => n.tag === `withdrawals:${id}`);
        },
        { timeout: 20_000, interval: 250 },
      )
      .toMatchObject({ title: `This desk's withdrawal ${id}: DONE`, body: expect.stringMatching(/^Completed.*250 USDT to TJRab/) });
    // Kept in the core until read, for the window's notices.
    const kept = await core.invoke('noticesList', {});
    expect(kept.ok && (kept.data as Notices).items.find((n) => n.tag === `withdrawals:${id}`)).toMatchObject({ read: false });
  });

  it('tells that a signature is needed when a draft waits in the confirmation window', async () => {
    const before = notices.length;
    const t = await core.invoke('approvalsDraft', {
      write: { kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', amount: '3' } },
    });
    expect(t.ok).toBe(true);
    const { ticket, title } = t.ok ? (t.data as { ticket: string; title: string }) : { ticket: '', title: '' };
    expect(notices.slice(before)).toContainEqual({
      title: 'Signature needed',
      body: `${title}: waiting in the confirmation window.`,
      tag: `ticket:${ticket}`,
    });
    await core.invokeConfirm('confirmDecline', { ticket });
    // Declined, its notice is done: kept, read, saying so; no desktop notification is asked for it.
    const kept = await core.invoke('noticesList', {});
    expect(kept.ok && (kept.data as Notices).items.find((n) => n.tag === `ticket:${ticket}`)).toMatchObject({
      title: 'Signature no longer waiting',
      body: `${title}: declined, nothing was signed.`,
      read: true,
    });
  });

  it('tells when a rebalance batch finishes, with its counts', async () => {
    const operator = await ensureOperator(core);
    const owner = sb.creds.sub_accounts[0]!.uid;
    const plan = await core.invoke('rebalancePlan', {
      currency: 'USDT',
      preset: { kind: 'sweep', ceiling: '10' },
      accounts: [{ owner, kind: 'spot' }],
    });
    expect(plan.ok).toBe(true);
    const d = await core.invoke('rebalanceDraft', { plan: (plan as { data: { id: string } }).data.id });
    const { ticket, ref } = (d as { data: { ticket: string; ref: string } }).data;
    expect((await core.invokeConfirm('confirmSign', { ticket, operator, passphrase: TEST_OPERATOR.passphrase })).ok).toBe(true);
    await expect
      .poll(() => notices.find((n) => n.tag === `rebalance:${ref}`), { timeout: 30_000 })
      .toMatchObject({ title: expect.stringMatching(/^Rebalance finished: /), body: '1 done, 0 failed, 0 skipped.' });
  });
});
