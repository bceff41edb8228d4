import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { listOf, Withdrawal } from '../../../../shared/api/records.ts';
import type { ConfirmState } from '../../../../shared/confirm.ts';
import type { ApprovalsState, IntentView } from '../../../../shared/ipc.ts';
import { ApiClient } from '../../client/client.ts';
import type { CoreOptions } from '../../core.ts';
import { sandboxProfile } from '../../profiles/sandbox.ts';
import type { SandboxFixture } from '../../testkit/sandbox.ts';
import { ok, sandboxCore, type Desk } from '../../testkit/sandboxCore.ts';

// Whole desks (cores over a real Sandbox) sharing one team store: the setting every team scenario starts
// from, so that each test file states only what its scenario adds.

export { ok, type Desk };

export const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
export const PASS = { Alice: 'alice passphrase 1', Bob: 'bob passphrase 22' };

/** A desk whose data folder is `folder` under the fixture's, in the team store at `url`; `log` hears its log lines. */
export function openTeamCore(
  sb: SandboxFixture,
  folder: string,
  team: Omit<NonNullable<CoreOptions['team']>, 'domain'>,
  log: (line: string) => void = () => {},
  writes?: CoreOptions['writes'],
): Desk {
  const dataDir = join(sb.dir, folder);
  mkdirSync(join(dataDir, 'approvals', 'operators'), { recursive: true });
  return sandboxCore(sb, { dataDir, team: { ...team, domain: 'sandbox' }, log, ...(writes ? { writes } : {}) });
}

/** Bob makes his key at desk `b`; Alice, desk `a`'s first operator, proposes him by its enrolment code. */
export async function aliceAndBob(a: Desk, b: Desk): Promise<{ alice: string; bob: string }> {
  const alice = (await ok<{ id: string }>(a.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice }))).id;
  const made = await ok<{ enrolment: string; fingerprint: string }>(
    b.invokeConfirm('confirmMakeOperatorKey', { name: 'Bob', passphrase: PASS.Bob }),
  );
  const proposal = { name: 'Bob', enrolment: made.enrolment, enrolment_fingerprint: made.fingerprint, by: alice, passphrase: PASS.Alice };
  const bob = (await ok<{ id: string }>(a.invokeConfirm('confirmProposeOperator', proposal))).id;
  return { alice, bob };
}

/** The TRX address in the address book and a policy that asks two operators for everything, in force at `a`. */
export async function twoApprovalsFor(a: Desk, alice: string): Promise<void> {
  const entry = await ok<{ ticket: string }>(a.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address: TRX }));
  await ok(a.invokeConfirm('confirmSign', { ticket: entry.ticket, operator: alice, passphrase: PASS.Alice }));
  const policy = { rules: [{ id: 'two', match: {}, action: 'require' as const, approvals: 2, drafter_may_approve: true }] };
  const change = await ok<{ ticket: string }>(a.invoke('approvalsProposePolicy', { policy }));
  await ok(a.invokeConfirm('confirmSign', { ticket: change.ticket, operator: alice, passphrase: PASS.Alice }));
  await expect.poll(async () => (await ok<ApprovalsState>(a.invoke('approvalsState', {}))).policy.rules).toEqual(policy.rules);
}

/** Alice drafts and signs a USDT withdrawal to the TRX address at `a`; its reference. */
export async function draftWithdrawal(a: Desk, alice: string, amount: string): Promise<string> {
  const draft = await ok<{ ticket: string }>(
    a.invoke('approvalsDraft', { write: { kind: 'withdrawal', input: { currency: 'USDT', amount, address: TRX, chain: 'TRX' } } }),
  );
  const ref = (await ok<ConfirmState>(a.invokeConfirm('confirmState', {}))).tickets.find((x) => x.id === draft.ticket)!.ref;
  await ok(a.invokeConfirm('confirmSign', { ticket: draft.ticket, operator: alice, passphrase: PASS.Alice }));
  return ref;
}

/** Bob approves `ref` at `b` once `b` sees it waiting. */
export async function bobApproves(b: Desk, bob: string, ref: string): Promise<void> {
  await expect
    .poll(async () => (await ok<ApprovalsState>(b.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)?.state)
    .toBe('waiting');
  const t = await ok<{ ticket: string }>(b.invoke('approvalsDecide', { ref, action: 'approve' }));
  await ok(b.invokeConfirm('confirmSign', { ticket: t.ticket, operator: bob, passphrase: PASS.Bob }));
}

/** The desk's intent for `ref`, as its journal shows it. */
export async function intentAt(desk: Desk, ref: string): Promise<IntentView | undefined> {
  return (await ok<{ items: IntentView[] }>(desk.invoke('intentsList', {}))).items.find((v) => v.id === ref);
}

/** The withdrawals the exchange holds under `ref`, asked of it directly (not through any desk). */
export function withdrawalsAtExchange(sb: SandboxFixture, ref: string): Promise<Withdrawal[]> {
  const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
  const exchange = new ApiClient({ baseUrl, credentials, limitsOff: true });
  return exchange.request({ method: 'GET', path: '/wallet/withdrawals', query: [['withdraw_order_id', ref]] }, listOf(Withdrawal));
}
