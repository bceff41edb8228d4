import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalsState } from '../../../shared/ipc.ts';
import { Dec } from '../../../shared/money.ts';
import type { DustOverview, DustReview } from '../../../shared/smallBalance.ts';
import { ensureOperator, TEST_OPERATOR } from '../approvals/testkit/governed.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { readSandboxCredentials } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore } from '../testkit/sandboxCore.ts';

// A conversion is its own kind under the policy, valued in USDT: a rule can block conversions worth more
// than a value while smaller ones go with one signature. Through the core's channels (each request parsed
// by its schema first), against a real Sandbox.

let core: Core & ConfirmCore;
const sb = useSandbox('dust-policy', { limits: false });

/** The Sandbox's last price in USDT, as the review reads it (GET /spot/tickers, public); null without a pair. */
async function usdt(currency: string): Promise<Dec | null> {
  const { base_url } = readSandboxCredentials(sb.credentialsPath);
  const res = await fetch(`${base_url}/spot/tickers?currency_pair=${currency}_USDT`);
  const last = res.ok ? ((await res.json()) as { last?: string }[])[0]?.last : undefined;
  return last ? new Dec(last) : null;
}

beforeAll(async () => {
  core = sandboxCore(sb);
  await ensureOperator(core);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

describe('conversions under the policy', () => {
  it('blocks a conversion worth at least the rule in USDT, lets a smaller one go with one signature, and judges the batch by its strictest row', async () => {
    const list = await ok<DustOverview>(core.invoke('dustList', {}));
    const rows = [];
    // Only currencies with a USDT price: without one the review fails closed, whatever the amount.
    for (const a of list.accounts)
      for (const i of a.items) {
        const price = await usdt(i.currency);
        if (price) rows.push({ account: a.account, currency: i.currency, value: new Dec(i.available_balance).mul(price) });
      }
    rows.sort((x, y) => x.value.cmp(y.value));
    const small = rows[0]!;
    const big = rows.at(-1)!;
    expect(big.value.gt(small.value)).toBe(true);
    const threshold = small.value.plus(big.value).div(2).toDecimalPlaces(8).toFixed();

    const policy = {
      rules: [
        { id: 'big-dust', match: { kinds: ['small_balance_convert'], usdt_at_least: threshold }, action: 'block' },
        { id: 'confirm-every-write', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
      ],
    };
    const operator = await ensureOperator(core);
    const t = await ok<{ ticket: string }>(core.invoke('approvalsProposePolicy', { policy }));
    await ok(core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    await expect
      .poll(async () => (await ok<ApprovalsState>(core.invoke('approvalsState', {}))).policy.rules.map((r) => r.id), { timeout: 10_000 })
      .toEqual(['big-dust', 'confirm-every-write']);

    const pick = (r: typeof small) => ({ account: r.account, currency: r.currency });
    const one = await ok<DustReview>(core.invoke('dustReview', { rows: [pick(small)] }));
    expect(one.verdict).toMatchObject({ decision: 'require', rule: 'confirm-every-write', approvals: 1 });
    const two = await ok<DustReview>(core.invoke('dustReview', { rows: [pick(small), pick(big)] }));
    expect(two.rows.map((r) => r.verdict.decision)).toEqual(['require', 'block']);
    expect(two.rows[1]!.verdict.rules[0]!.why.join('; ')).toMatch(
      /kind small_balance_convert is one of small_balance_convert; worth .* USDT, at least .* USDT/,
    );
    expect(two.verdict).toMatchObject({ decision: 'block', rule: 'big-dust' });
  });

  it('refuses bad requests before anything is read, naming the problem', async () => {
    expect(await core.invoke('dustConvert', { rows: [] })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/select at least one small balance/i) },
    });
    expect(await core.invoke('dustHistory', { account: 'main', limit: 101 })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/limit is 1 to 100/i) },
    });
    expect(await core.invoke('dustReview', { rows: [{ account: '999', currency: 'DOGE' }] })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/holds no key for sub-account 999/i) },
    });
    expect(await core.invoke('dustReview', { rows: [{ account: 'main', currency: 'USDT' }] })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/USDT is no longer a small balance of the main account/i) },
    });
  });
});
