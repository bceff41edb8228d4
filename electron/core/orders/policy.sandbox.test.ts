import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { Review } from '../../../shared/ipc.ts';
import { launchSandbox, type SandboxProcess } from '../../sandbox-launcher.ts';
import { createCore, type ConfirmCore, type Core } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { ensureOperator, TEST_OPERATOR } from '../approvals/testkit/governed.ts';

// The policy judges an order by its notional: a rule can hold orders above a value in USDT for more
// signatures, while smaller ones and cancels go as the rest of the policy says. Real core, real Sandbox.

const ROOT = join(import.meta.dirname, '..', '..', '..');
let sandbox: SandboxProcess;
let dir: string;
let core: Core & ConfirmCore;

async function ok<T>(p: Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error!.message);
  return r.data as T;
}

const order = (amount: string, price: string) => ({
  write: { kind: 'spot_order', input: { currency_pair: 'BTC_USDT', side: 'buy', type: 'limit', account: 'spot', amount, price, time_in_force: 'gtc' } },
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orders-policy-'));
  sandbox = await launchSandbox({ root: ROOT, dataDir: join(dir, 'sandbox'), extraArgs: ['--no-limits'] });
  core = createCore({ profile: { ...sandboxProfile(sandbox.credentialsPath), limitsOff: true }, dataDir: join(dir, 'desk'), log: () => {}, coolingOffMs: 0 });
  const operator = await ensureOperator(core);
  const policy = {
    rules: [
      { id: 'cancels-free', match: { kinds: ['spot_cancel', 'spot_cancel_all'] }, action: 'allow' },
      { id: 'big-orders', match: { kinds: ['spot_order'], usdt_at_least: '10000' }, action: 'require', approvals: 2 },
      { id: 'confirm-every-write', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
    ],
  };
  const t = await ok<{ ticket: string }>(core.invoke('approvalsProposePolicy', { policy }));
  await ok(core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
  for (let i = 0; i < 100 && (await ok<{ policy: { rules: unknown[] } }>(core.invoke('approvalsState', {}))).policy.rules.length !== 3; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
}, 60_000);
afterAll(async () => {
  await core?.close();
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('orders under the policy', () => {
  it('holds an order whose notional reaches the threshold for two signatures, and lets a smaller one go with one', async () => {
    const big = await ok<Review>(core.invoke('approvalsReview', order('0.2', '60000')));
    expect(big.verdict).toMatchObject({ decision: 'require', rule: 'big-orders', approvals: 2 });
    expect(big.verdict.rules[1]!.why.join('; ')).toMatch(/worth 12,000(\.00)? USDT, at least 10,000 USDT/);
    const small = await ok<Review>(core.invoke('approvalsReview', order('0.1', '60000')));
    expect(small.verdict).toMatchObject({ decision: 'require', rule: 'confirm-every-write', approvals: 1 });
  });

  it('lets a cancel through without a signature, and refuses to draft for a sub-account whose key the profile lacks', async () => {
    const cancel = await ok<Review>(core.invoke('approvalsReview', { write: { kind: 'spot_cancel', input: { currency_pair: 'BTC_USDT', order_id: '1' } } }));
    expect(cancel.verdict).toMatchObject({ decision: 'allow', rule: 'cancels-free' });
    const noKey = await core.invoke('approvalsDraft', { write: { ...order('0.001', '60000').write, input: { ...order('0.001', '60000').write.input, sub_uid: '10000110' } } });
    expect(noKey).toMatchObject({ ok: false, error: { message: expect.stringMatching(/holds no key for sub-account 10000110/) } });
    expect((await ok<ConfirmState>(core.invokeConfirm('confirmState', {}))).tickets).toEqual([]);
  });
});
