import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { AuditPage } from '../../../shared/journal.ts';
import type { ApprovalItem, ApprovalsState, IntentView } from '../../../shared/ipc.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore, type Desk } from '../testkit/sandboxCore.ts';

// A decided item keeps the rule, quorum and policy that decided it when a later policy comes into force,
// across a restart: against the real Sandbox, with the records the desk wrote as it decided.

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const PASS = { Alice: 'alice passphrase 1', Bob: 'bob passphrase 22' };

const sb = useSandbox('decided-sandbox', { limits: false });

async function items(core: Desk): Promise<ApprovalItem[]> {
  return (await ok<ApprovalsState>(core.invoke('approvalsState', {}))).items;
}

async function sign(core: Desk, ticket: string, operator: string, passphrase: string): Promise<void> {
  await ok(core.invokeConfirm('confirmSign', { ticket, operator, passphrase }));
}

const TWO_FOR_BOOK = {
  rules: [
    { id: 'unknown-destination', match: { kinds: ['withdrawal' as const], destinations: ['unknown' as const] }, action: 'block' as const },
    {
      id: 'two-for-book',
      match: { kinds: ['withdrawal' as const], destinations: ['address_book' as const] },
      action: 'require' as const,
      approvals: 2,
      drafter_may_approve: true,
    },
    { id: 'one', match: {}, action: 'require' as const, approvals: 1, drafter_may_approve: true },
  ],
};

describe('a decided item is shown under the policy that decided it', () => {
  it('a 12.5 USDT withdrawal sent under confirm-every-write and "add operator Bob" at quorum 1 keep them after two-for-book', async () => {
    const dir = join(sb.dir, 'decided');
    let core = sandboxCore(sb, { dataDir: dir });
    try {
      const alice = (await ok<{ id: string }>(core.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice })))
        .id;
      await ok(core.invokeConfirm('confirmProposeOperator', { name: 'Bob', new_passphrase: PASS.Bob, by: alice, passphrase: PASS.Alice }));
      const entry = await ok<{ ticket: string }>(core.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address: TRX }));
      await sign(core, entry.ticket, alice, PASS.Alice);

      const draft = await ok<{ ticket: string }>(
        core.invoke('approvalsDraft', {
          write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '12.5', address: TRX, chain: 'TRX' } },
        }),
      );
      const ref = (await ok<ConfirmState>(core.invokeConfirm('confirmState', {}))).tickets.find((t) => t.id === draft.ticket)!.ref;
      await sign(core, draft.ticket, alice, PASS.Alice);
      const intent = async (): Promise<IntentView | undefined> =>
        (await ok<{ items: IntentView[] }>(core.invoke('intentsList', {}))).items.find((v) => v.id === ref);
      await expect.poll(async () => (await items(core)).find((i) => i.ref === ref)?.state, { timeout: 30_000 }).toBe('sent');
      await expect.poll(async () => (await intent())?.state, { timeout: 30_000 }).not.toBe('approved');

      const policy = await ok<{ ticket: string }>(core.invoke('approvalsProposePolicy', { policy: TWO_FOR_BOOK }));
      await sign(core, policy.ticket, alice, PASS.Alice);
      await expect.poll(async () => (await ok<ApprovalsState>(core.invoke('approvalsState', {}))).change_quorum).toBe(2);
      await core.close();

      // Read by a desk started afresh: what it shows comes from the records, not from the memory of the one that decided.
      core = sandboxCore(sb, { dataDir: dir });
      const s = await ok<ApprovalsState>(core.invoke('approvalsState', {}));
      expect(s.policy.rules.map((r) => r.id)).toEqual(['unknown-destination', 'two-for-book', 'one']);
      const sent = s.items.find((i) => i.ref === ref)!;
      const atDefault = { profile: expect.any(String), policy: null, version: 0, rule: 'confirm-every-write', quorum: 1 };
      expect(sent).toMatchObject({ state: 'sent', needed: 1, approved_by: ['Alice'], decided: atDefault });
      // Its status, as the page that drafted it follows it, reads the same decision, not the policy now.
      expect(await ok(core.invoke('requestStatus', { ref }))).toMatchObject({ needed: 1, approved_by: ['Alice'], decided: atDefault });
      expect(s.items.find((i) => i.what === 'add_operator')).toMatchObject({ state: 'in_force', needed: 1, decided: atDefault });
      // The policy itself was decided by the one it replaced.
      const change = s.items.find((i) => i.what === 'policy')!;
      expect(change).toMatchObject({ state: 'in_force', needed: 1, decided: atDefault });

      // The Journal page and its CSV say it too, on the record that decided it.
      const words = 'decided by confirm-every-write · quorum 1 · the default policy';
      const page = await ok<AuditPage>(core.invoke('journalEntries', { intent: ref, limit: 100 }));
      expect(page.items.find((e) => e.journal === 'governance' && e.type === 'proposal')?.summary).toContain(words);
      // And the write's own record in the desk's journal, where it was sent from.
      expect(page.items.find((e) => e.journal !== 'governance' && e.type === 'intent')?.summary).toContain(words);
      const csv = await ok<{ text: string }>(core.invoke('journalExport', { format: 'csv', intent: ref }));
      expect(csv.text).toContain(words);
      // The signed bundle holds the records as written: the decision is in the line, under its signature.
      const bundle = await ok<{ text: string }>(core.invoke('journalExport', { format: 'bundle' }));
      expect(bundle.text).toContain(JSON.stringify(JSON.stringify({ ...atDefault, profile: sent.decided!.profile })).slice(1, -1));

      // A withdrawal drafted now waits under the new rule, and shows what it needs now.
      const next = await ok<{ ticket: string }>(
        core.invoke('approvalsDraft', {
          write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '12.5', address: TRX, chain: 'TRX' } },
        }),
      );
      await sign(core, next.ticket, alice, PASS.Alice);
      const waiting = (await items(core)).find((i) => i.state === 'waiting' && i.what === 'request')!;
      expect(waiting).toMatchObject({ needed: 2, verdict: { rule: 'two-for-book' } });
      expect(waiting.decided).toBeUndefined();

      // Once Bob approves it, it is decided under two-for-book, quorum 2, the policy change that is version 1.
      const approve = await ok<{ ticket: string }>(core.invoke('approvalsDecide', { ref: waiting.ref, action: 'approve' }));
      const bob = s.operators.find((o) => o.name === 'Bob')!.id;
      await sign(core, approve.ticket, bob, PASS.Bob);
      await expect
        .poll(async () => (await items(core)).find((i) => i.ref === waiting.ref)?.decided)
        .toEqual({ profile: atDefault.profile, policy: change.ref, version: 1, rule: 'two-for-book', quorum: 2 });
    } finally {
      await core.close();
    }
  }, 180_000);
});
