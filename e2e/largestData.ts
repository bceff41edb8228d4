import { addOperator, ensureOperator, TEST_OPERATOR } from '../electron/core/approvals/testkit/governed.ts';
import type { DeskUnderTest } from './harness.ts';
import { sandboxGet } from './sandboxApi.ts';

// The widest things the Sandbox's world puts on the desk's pages, for the layout checks: a withdrawal of
// the largest amount to the longest saved address, waiting in the Approvals queue for two more signatures,
// signed by its drafter. Needs a desk started with a cooling-off of 0 (the two more operators the policy
// needs, and the policy, take effect at once).

const TWO_APPROVALS = {
  rules: [
    { id: 'unknown-destination', match: { kinds: ['withdrawal'], destinations: ['unknown'] }, action: 'block' as const },
    { id: 'two-other-operators', match: { kinds: ['withdrawal'] }, action: 'require' as const, approvals: 2 },
    { id: 'confirm-every-write', match: {}, action: 'require' as const, approvals: 1, drafter_may_approve: true },
  ],
};

type Reply<T> = { ok: true; data: T } | { ok: false; error: { message: string } };

function ok<T>(r: unknown, what: string): T {
  const reply = r as Reply<T>;
  if (!reply.ok) throw new Error(`${what}: ${reply.error.message}`);
  return reply.data;
}

/** Signs every ticket waiting in the confirmation window as the first operator. */
async function signAll(desk: DeskUnderTest, operator: string): Promise<void> {
  const s = ok<{ tickets: { id: string }[] }>(await desk.core.invokeConfirm('confirmState', {}), 'confirmState');
  for (const t of s.tickets) {
    ok(await desk.core.invokeConfirm('confirmSign', { ticket: t.id, operator, passphrase: TEST_OPERATOR.passphrase }), 'confirmSign');
  }
}

export const LARGEST_AMOUNT = '1234567.891234';

/** Seeds the above; answers the address of the withdrawal drafted for approval. */
export async function seedLargest(desk: DeskUnderTest): Promise<{ address: string }> {
  const operator = await ensureOperator(desk.core);
  await addOperator(desk.core, 'Bob', 'bob passphrase 22');
  await addOperator(desk.core, 'Carol', 'carol passphrase 3');
  ok(await desk.core.invoke('approvalsProposePolicy', { policy: TWO_APPROVALS }), 'policy');
  await signAll(desk, operator);
  const saved = await sandboxGet<{ chain: string; address: string; verified: string }[]>(
    desk.sandbox.credentialsPath,
    '/wallet/saved_address',
    'currency=USDT',
  );
  const { chain, address } = saved.filter((s) => s.verified === '1').sort((a, b) => b.address.length - a.address.length)[0]!;
  ok(
    await desk.core.invoke('approvalsDraft', {
      write: { kind: 'withdrawal', input: { currency: 'USDT', chain, address, amount: LARGEST_AMOUNT } },
    }),
    'draft',
  );
  await signAll(desk, operator);
  return { address };
}
