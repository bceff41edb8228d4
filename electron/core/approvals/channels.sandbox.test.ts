import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listOf, Withdrawal } from '../../../shared/api/records.ts';
import { CHANNEL_NAMES, channels } from '../../../shared/ipc.ts';
import { ApiClient } from '../client/client.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { addOperator, addToBook, ensureOperator, TEST_OPERATOR } from './testkit/governed.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { sandboxCore } from '../testkit/sandboxCore.ts';

// The adversary: a script running in the desk's main window. It can call every channel of the main
// window's contract with any payload, in any order. It must not get a governed write sent, nor have an
// operator's passphrase accepted (the main contract has no channel that takes one).

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
let core: Core & ConfirmCore;

async function withdrawalsAtExchange(): Promise<number> {
  const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
  const c = new ApiClient({ baseUrl, credentials, limitsOff: true });
  const now = Math.floor(Date.now() / 1000);
  return (
    await c.request(
      {
        method: 'GET',
        path: '/wallet/withdrawals',
        query: [
          ['from', String(now - 86_400)],
          ['to', String(now + 60)],
          ['limit', '1000'],
        ],
      },
      listOf(Withdrawal),
    )
  ).length;
}

/** Every key name a schema accepts, however deep. */
function keysOf(schema: z.ZodType): string[] {
  const def = (schema as unknown as { _zod?: { def?: Record<string, unknown> } })._zod?.def ?? {};
  const out: string[] = [];
  if (def.type === 'object') {
    for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) out.push(k, ...keysOf(v));
  }
  for (const inner of ['innerType', 'in', 'out', 'element'] as const) if (def[inner]) out.push(...keysOf(def[inner] as z.ZodType));
  for (const o of (def.options as z.ZodType[] | undefined) ?? []) out.push(...keysOf(o));
  return out;
}

const sb = useSandbox('approvals-channels', { limits: false });
beforeAll(async () => {
  core = sandboxCore(sb);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

describe("the main window's channels", () => {
  it("take no operator passphrase: only the vault's own channels name a passphrase at all", () => {
    const withPassphrase = CHANNEL_NAMES.filter((c) => keysOf(channels[c].request).some((k) => /pass|signature|operator/i.test(k)));
    // vaultSetPassphrase names its fields current and next; both are the vault's, never an operator's.
    // teamTest's, teamFound's, teamJoin's and teamJoinRehearsal's password is the team store's database
    // login (Settings), no operator's: founding and joining are vouched for by an operator in the
    // confirmation window (a rehearsal joins through the same door, team/membership.ts).
    expect(withPassphrase).toEqual(['vaultUnlock', 'teamTest', 'teamFound', 'teamJoin', 'teamJoinRehearsal']);
  });

  it('send no governed write, whatever is called in whatever order', async () => {
    const operator = await ensureOperator(core);
    await addToBook(core, { currency: 'USDT', chain: 'TRX', address: TRX }, operator);
    const before = await withdrawalsAtExchange();
    const write = { kind: 'withdrawal', input: { currency: 'USDT', amount: '17', address: TRX, chain: 'TRX' } };

    // The old path: prepare, then approve from the window.
    const prepared = await core.invoke('writePrepare', { write });
    expect(prepared.ok).toBe(true);
    const id = (prepared as { data: { id: string } }).data.id;
    const approved = await core.invoke('writeApprove', { id });
    expect(approved).toMatchObject({ ok: false, error: { message: expect.stringMatching(/governs withdrawals.*confirmation window/) } });

    // A draft makes a ticket, but nothing in the main contract signs it: every channel, handed the
    // ticket, the operator and the right passphrase, either refuses the payload or does something else.
    const ticket = (await core.invoke('approvalsDraft', { write })) as { ok: true; data: { ticket: string } };
    expect(ticket.ok).toBe(true);
    const stuffed = {
      ticket: ticket.data.ticket,
      operator,
      passphrase: TEST_OPERATOR.passphrase,
      id,
      ref: ticket.data.ticket,
      action: 'approve',
    };
    for (const c of CHANNEL_NAMES) {
      if (c === 'vaultLock' || c === 'profileRemove') continue;
      await core.invoke(c, stuffed);
      await core.invoke(c, { write, ...stuffed });
    }
    for (const c of ['confirmSign', 'confirmCreateFirstOperator', 'confirmProposeOperator']) {
      expect(await core.invoke(c, stuffed)).toMatchObject({ ok: false, error: { message: expect.stringMatching(/unknown channel/) } });
    }
    const state = (await core.invoke('approvalsState', {})) as { data: { items: unknown[] } };
    expect(state.data.items).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await withdrawalsAtExchange()).toBe(before);

    // The same ticket signed through the confirmation channels does go out: the test above is not vacuous.
    expect(
      (await core.invokeConfirm('confirmSign', { ticket: ticket.data.ticket, operator, passphrase: TEST_OPERATOR.passphrase })).ok,
    ).toBe(true);
    await expect.poll(withdrawalsAtExchange, { timeout: 15_000 }).toBe(before + 1);
  }, 60_000);
});

describe('velocity', () => {
  it('counts requests still waiting for approvals, so a batch cannot slip under the rule', async () => {
    const operator = await ensureOperator(core);
    // Two approvals need two operators: the desk refuses a policy that would wedge it.
    await addOperator(core, 'Second operator', 'second operator passphrase');
    const sign = async (ticket: string) =>
      expect((await core.invokeConfirm('confirmSign', { ticket, operator, passphrase: TEST_OPERATOR.passphrase })).ok).toBe(true);
    const policy = {
      rules: [
        { id: 'usdt-50-a-day', match: { kinds: ['withdrawal'], currencies: ['USDT'], velocity_24h_at_least: '50' }, action: 'block' },
        { id: 'two-approvals', match: {}, action: 'require', approvals: 2, drafter_may_approve: true },
      ],
    };
    const proposed = (await core.invoke('approvalsProposePolicy', { policy })) as { ok: true; data: { ticket: string } };
    await sign(proposed.data.ticket);
    const write = (amount: string) => ({ write: { kind: 'withdrawal', input: { currency: 'USDT', amount, address: TRX, chain: 'TRX' } } });
    // 17 USDT went out in the test above; 20 more waits for a second approval (nothing is sent yet).
    const first = (await core.invoke('approvalsDraft', write('20'))) as { ok: true; data: { ticket: string } };
    await sign(first.data.ticket);
    const review = (await core.invoke('approvalsReview', write('15'))) as {
      ok: true;
      data: { verdict: { decision: string; rule: string } };
    };
    expect(review.data.verdict).toMatchObject({ decision: 'block', rule: 'usdt-50-a-day' });
  }, 60_000);
});
