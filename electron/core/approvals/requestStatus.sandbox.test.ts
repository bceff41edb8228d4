import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { ChannelResponse } from '../../../shared/ipc.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ensureOperator, TEST_OPERATOR } from './testkit/governed.ts';
import { sandboxCore } from '../testkit/sandboxCore.ts';

// The page that drafted a request follows it with requestStatus alone: from the confirmation window's
// ticket to the journal's final state, and "gone" for a draft declined there.

let core: Core & ConfirmCore;
const sb = useSandbox('request-status', { limits: false });
beforeAll(() => {
  core = sandboxCore(sb);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

async function ok<T>(p: Promise<{ ok: boolean; data?: unknown; error?: unknown }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.data as T;
}
const status = (ref: string) => ok<ChannelResponse<'requestStatus'>>(core.invoke('requestStatus', { ref }));

describe('requestStatus', () => {
  it('follows a transfer from its ticket to done, and calls a declined draft gone', async () => {
    const operator = await ensureOperator(core);
    const write = {
      kind: 'main_sub_transfer' as const,
      input: { sub_account: sb.creds.sub_accounts[0]!.uid, currency: 'USDT', amount: '3', direction: 'to' as const },
    };
    const declined = await ok<ChannelResponse<'approvalsDraft'>>(core.invoke('approvalsDraft', { write }));
    expect((await status(declined.ref)).state).toBe('to_sign');
    await ok(core.invokeConfirm('confirmDecline', { ticket: declined.ticket }));
    expect(await status(declined.ref)).toMatchObject({ state: 'gone', intent: null });

    const t = await ok<ChannelResponse<'approvalsDraft'>>(core.invoke('approvalsDraft', { write }));
    const tickets = (await ok<ConfirmState>(core.invokeConfirm('confirmState', {}))).tickets;
    expect(tickets.find((x) => x.id === t.ticket)?.ref).toBe(t.ref);
    await ok(core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    let s = await status(t.ref);
    for (let i = 0; i < 200 && s.intent?.state !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      s = await status(t.ref);
    }
    expect(s).toMatchObject({ state: 'sent', approved_by: [TEST_OPERATOR.name], rejected: null });
    expect(s.intent).toMatchObject({ id: t.ref, state: 'done', kind: 'main_sub_transfer' });
  }, 30_000);

  it('answers gone for a reference it does not know, and refuses a malformed one', async () => {
    expect((await status('nobody-knows-this')).state).toBe('gone');
    const bad = await core.invoke('requestStatus', { ref: '' } as never);
    expect(bad.ok).toBe(false);
  });

  it("refuses a drafter's approval at the confirmation channel, and the request waits for one who may", async () => {
    const operator = await ensureOperator(core);
    const dan = await ok<{ id: string }>(
      core.invokeConfirm('confirmProposeOperator', {
        name: 'Dan',
        new_passphrase: 'dan passphrase 44',
        by: operator,
        passphrase: TEST_OPERATOR.passphrase,
        role: 'drafter',
      }),
    );
    // One approval not by the drafter: the test operator drafts, Dan (a drafter) may not approve.
    const policy = { rules: [{ id: 'another', match: {}, action: 'require' as const, approvals: 1 }] };
    const p = await ok<{ ticket: string }>(core.invoke('approvalsProposePolicy', { policy }));
    await ok(core.invokeConfirm('confirmSign', { ticket: p.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    const write = {
      kind: 'main_sub_transfer' as const,
      input: { sub_account: sb.creds.sub_accounts[0]!.uid, currency: 'USDT', amount: '2', direction: 'to' as const },
    };
    const t = await ok<ChannelResponse<'approvalsDraft'>>(core.invoke('approvalsDraft', { write }));
    await ok(core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    expect((await status(t.ref)).state).toBe('waiting');
    const decide = await ok<{ ticket: string }>(core.invoke('approvalsDecide', { ref: t.ref, action: 'approve' }));
    const signed = await core.invokeConfirm('confirmSign', { ticket: decide.ticket, operator: dan.id, passphrase: 'dan passphrase 44' });
    expect(signed).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Dan is a drafter: a drafter may not approve/) } });
    expect(await status(t.ref)).toMatchObject({ state: 'waiting', approved_by: [], intent: null });
  }, 30_000);
});
