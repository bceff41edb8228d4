import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmCore, Core } from '../core.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { sandboxCore } from '../testkit/sandboxCore.ts';

// The rebalance channels through the core, as the window calls them, on a Sandbox. The adversaries: a
// script in the window (any payload, any plan id) and someone who can write the data folder (the
// templates and the list of batches). Either gets an error that names the problem; nothing is sent.

let core: Core & ConfirmCore;
type Reply = { ok: boolean; data?: unknown; error?: { kind: string; message: string } };
const call = (channel: string, payload: unknown) => core.invoke(channel, payload) as Promise<Reply>;

const sb = useSandbox('rebalance-channels', { limits: false });
beforeAll(async () => {
  core = sandboxCore(sb);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

describe('the rebalance channels', () => {
  it('list the accounts in scope with balances read now, and plan only from those', async () => {
    const scope = await call('rebalanceScope', { currency: 'USDT' });
    expect(scope.ok).toBe(true);
    const accounts = (scope.data as { accounts: { account: { owner: string; kind: string }; balance: string; reachable: boolean }[] })
      .accounts;
    expect(accounts[0]).toMatchObject({ account: { owner: 'main', kind: 'spot' }, reachable: true });
    const subs = accounts.filter((a) => a.account.owner !== 'main' && a.account.kind === 'spot').slice(0, 3);
    const plan = await call('rebalancePlan', { currency: 'USDT', preset: { kind: 'equalize' }, accounts: subs.map((a) => a.account) });
    expect(plan.ok).toBe(true);
    // The balances planned from are the ones the core read, not anything the window sent.
    expect((plan.data as { accounts: { before: string }[] }).accounts.map((a) => a.before)).toEqual(subs.map((a) => a.balance));
  });

  it('refuse bad targets and unknown plans with the problem named, and draft nothing', async () => {
    const shares = await call('rebalancePlan', {
      currency: 'USDT',
      lines: [
        { account: { owner: 'main', kind: 'spot' }, target: { type: 'share', share: '2/3' } },
        { account: { owner: '10000101', kind: 'spot' }, target: { type: 'share', share: '1/2' } },
      ],
    });
    expect(shares).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: 'The shares add up to more than the whole.' } });
    const delivery = await call('rebalancePlan', {
      currency: 'USDT',
      lines: [{ account: { owner: 'main', kind: 'delivery' }, target: { type: 'amount', amount: '1' } }],
    });
    expect(delivery).toMatchObject({
      ok: false,
      error: { kind: 'invalid_request', message: expect.stringMatching(/^Account main:delivery: the desk reads no delivery balance yet/) },
    });
    const negative = await call('rebalancePlan', {
      currency: 'USDT',
      lines: [{ account: { owner: 'main', kind: 'spot' }, target: { type: 'amount', amount: '-1' } }],
    });
    expect(negative).toMatchObject({
      ok: false,
      error: { kind: 'invalid_request', path: ['lines', 0, 'target', 'amount'], message: expect.stringMatching(/^A plain decimal number/) },
    });
    const unknown = await call('rebalanceDraft', { plan: 'not-a-plan' });
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: expect.stringMatching(/^That plan is gone/) } });
    expect((await call('rebalanceBatches', {})).data).toEqual([]);
  });

  it('save and list templates; a templates file changed outside the desk is an error naming what is wrong, a batches file adds nothing', async () => {
    const t = {
      name: 'two desks',
      currency: 'USDT',
      lines: [{ account: { owner: '10000101', kind: 'spot' }, target: { type: 'band', floor: '100', ceiling: '5000' } }],
    };
    expect((await call('rebalanceTemplateSave', t)).data).toEqual([t]);
    expect((await call('rebalanceTemplates', {})).data).toEqual([t]);
    const file = join(sb.dir, 'desk', 'rebalance', 'templates.json');
    const doctored = JSON.parse(readFileSync(file, 'utf8'));
    doctored.sandbox[0].lines[0].target.ceiling = '5e3';
    writeFileSync(file, JSON.stringify(doctored));
    expect(await call('rebalanceTemplates', {})).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid_request',
        message: expect.stringMatching(/^The rebalance templates cannot be used: .*sandbox\.0\.lines\.0\.target\.ceiling/),
      },
    });
    // Which batches exist is what operators signed: a list written into the data folder adds none to run.
    writeFileSync(
      join(sb.dir, 'desk', 'rebalance', 'batches.json'),
      JSON.stringify([{ ref: 'forged', plan: 'p', title: 't', currency: 'USDT', created_at: 0, profile: 'sandbox' }]),
    );
    expect(await call('rebalanceBatches', {})).toMatchObject({ ok: true, data: [] });
  });
});
