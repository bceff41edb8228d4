import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmState } from '../../../shared/confirm.ts';
import { LABEL_SENTENCES } from '../../../shared/api/labels.ts';
import type { ChannelResponse } from '../../../shared/ipc.ts';
import { readSandboxCredentials } from '../profiles/sandbox.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// Payout files through the core's channels against a real Sandbox: the batch's verdict counts every
// row against a velocity rule, the core refuses to queue rows other than those reviewed, and a queued
// batch, once signed, goes out row by row and reports each row's outcome.

const PASS = 'payouts operator passphrase';
const ADDRS = ['TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'TN3W4H6rK2ce4vX9YnFxx6HkVW5nS5jF8W'];
let core: Core & ConfirmCore;
let operator: string;
const notices: { title: string; body: string; tag: string }[] = [];

async function call<T>(p: Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error!.message);
  return r.data as T;
}
const file = (csv: string) => ({ file: 'payouts.csv', content_base64: Buffer.from(csv).toString('base64') });
const csvOf = (amounts: string[]) =>
  `currency,chain,address,amount,reference\n${amounts.map((a, i) => `USDT,TRX,${ADDRS[i % ADDRS.length]},${a},INV-${i + 1}`).join('\n')}\n`;
const review = (csv: string) => call<ChannelResponse<'payoutsImport'>>(core.invoke('payoutsImport', file(csv)));

async function signTicket(ticket: string): Promise<void> {
  await call(core.invokeConfirm('confirmSign', { ticket, operator, passphrase: PASS }));
}

const sb = useSandbox('payouts', { limits: false });
beforeAll(async () => {
  core = openDesk({ home: join(sb.dir, 'desk'), sandboxCredentialsPath: sb.credentialsPath, coolingOffMs: 0, log: () => {} });
  core.subscribe((e, p) => e === 'notify' && notices.push(p as (typeof notices)[number]));
  operator = (await call<{ id: string }>(core.invokeConfirm('confirmCreateFirstOperator', { name: 'Payer', passphrase: PASS }))).id;
  // Known destinations, as the withdraw form adds them (the default policy blocks unknown ones).
  for (const address of ADDRS)
    await signTicket((await call<{ ticket: string }>(core.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address }))).ticket);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

describe('payouts from a file, through the core', () => {
  it('refuses a row in a low-liquidity currency with the reason, before the batch is reviewed', async () => {
    const csv = `${csvOf(['11'])}PEPEX,ETH,0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063,2000000,INV-9\n`;
    const r = await review(csv);
    expect(r.rows[0]!.problems).toEqual([]);
    expect(r.rows[1]!.problems).toEqual([
      {
        field: 'currency',
        message: expect.stringMatching(/^PEPEX is on the exchange's low-liquidity list \(GET \/wallet\/getLowCapExchangeList\)/),
      },
    ]);
    // Only the valid row is reviewed under the policy and counted.
    expect(r.rows[1]!.verdict).toBeNull();
    expect(r.totals).toEqual([{ currency: 'USDT', amount: '11', fee: '1', count: 1 }]);
    await expect(call(core.invoke('payoutsQueue', { ...file(csv), rows: [1, 2] }))).rejects.toThrow(/Nothing was queued/);
  });

  it("queues only the rows reviewed, sends them once signed, and reports each row: sent, or refused with the label's sentence", async () => {
    const csv = `${csvOf(['11', '12', '13'])}USDT,TRX,${ADDRS[0]},9,INV-4\n`;
    const r = await review(csv);
    expect(r.rows.map((x) => x.problems.map((p) => p.field))).toEqual([[], [], [], ['amount']]);
    expect(r.totals).toEqual([{ currency: 'USDT', amount: '36', fee: '3', count: 3 }]);
    expect(r.verdict).toMatchObject({ decision: 'require', approvals: 1 });

    // A window that claims the bad row is valid gets nothing queued.
    await expect(call(core.invoke('payoutsQueue', { ...file(csv), rows: [1, 2, 3, 4] }))).rejects.toThrow(
      /other rows check now. Nothing was queued/,
    );
    const queued = await call<ChannelResponse<'payoutsQueue'>>(core.invoke('payoutsQueue', { ...file(csv), rows: [1, 2, 3] }));
    expect(queued).toMatchObject({ rows: 3, title: 'Draft 3 withdrawals from payouts.csv' });
    const waiting = await call<ChannelResponse<'payoutsProgress'>>(core.invoke('payoutsProgress', { ref: queued.ref }));
    expect(waiting).toMatchObject({ state: 'drafted', sha256: r.sha256, counts: { pending: 3, sent: 0 } });
    expect(waiting.rows.map((x) => [x.row, x.reference, x.amount])).toEqual([
      [1, 'INV-1', '11'],
      [2, 'INV-2', '12'],
      [3, 'INV-3', '13'],
    ]);

    // The exchange refuses the second withdrawal it is sent (a clear 400: nothing applied).
    const creds = readSandboxCredentials(sb.credentialsPath);
    const fault = await fetch(`${creds.admin_url}/faults`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${creds.admin_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        kind: 'error',
        path: '/withdrawals',
        method: 'POST',
        every: 2,
        times: 1,
        status: 400,
        label: 'BALANCE_NOT_ENOUGH',
        message: 'not enough',
      }),
    });
    expect(fault.ok).toBe(true);
    await signTicket(queued.ticket);
    await expect
      .poll(
        async () => (await call<ChannelResponse<'payoutsProgress'>>(core.invoke('payoutsProgress', { ref: queued.ref }))).counts.pending,
        { timeout: 30_000, interval: 200 },
      )
      .toBe(0);
    const done = await call<ChannelResponse<'payoutsProgress'>>(core.invoke('payoutsProgress', { ref: queued.ref }));
    expect(done.counts).toEqual({ pending: 0, sent: 2, refused: 1, skipped: 0 });
    // The operator is told once that the batch finished, with the same counts.
    await expect
      .poll(() => notices.filter((n) => n.tag === `payouts:${queued.ref}`))
      .toEqual([
        {
          title: 'Payout batch finished: 3 withdrawals from payouts.csv',
          body: '2 sent, 1 refused, 0 skipped. The report is on the Payouts page.',
          tag: `payouts:${queued.ref}`,
        },
      ]);
    const report = await call<ChannelResponse<'payoutsReport'>>(core.invoke('payoutsReport', { ref: queued.ref }));
    const rows = parse(report.csv, { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => [x.row, x.reference, x.amount, x.outcome, x.label])).toEqual([
      ['1', 'INV-1', '11', 'sent', ''],
      ['2', 'INV-2', '12', 'refused', 'BALANCE_NOT_ENOUGH'],
      ['3', 'INV-3', '13', 'sent', ''],
    ]);
    expect(rows[1]!.sentence).toBe(LABEL_SENTENCES.BALANCE_NOT_ENOUGH);
    expect(rows.filter((x) => x.outcome === 'sent').every((x) => x.exchange_id !== '' && x.withdraw_order_id !== '')).toBe(true);
  }, 90_000);

  it('counts the whole batch against a velocity rule, though each row alone stays under it; a rejected batch reports every row skipped', async () => {
    const policy = {
      rules: [
        {
          id: 'usdt-velocity',
          match: { kinds: ['withdrawal' as const], currencies: ['USDT'], velocity_24h_at_least: '140' },
          action: 'require' as const,
          approvals: 2,
        },
        { id: 'one', match: {}, action: 'require' as const, approvals: 1, drafter_may_approve: true },
      ],
    };
    // Two approvals not by the drafter take three operators: the desk refuses a policy that would wedge it.
    for (const name of ['Second payer', 'Third payer'])
      await call(
        core.invokeConfirm('confirmProposeOperator', { name, new_passphrase: `${name} passphrase`, by: operator, passphrase: PASS }),
      );
    const t = await call<{ ticket: string }>(core.invoke('approvalsProposePolicy', { policy }));
    await signTicket(t.ticket);
    const st = await call<ConfirmState>(core.invokeConfirm('confirmState', {}));
    expect(st.tickets).toEqual([]);
    // 24 USDT went out above (one row refused): each row of 40 stays under 140 alone (64), the third and fourth reach it only with the rows before them.
    const one = await review(csvOf(['40']));
    expect(one.verdict).toMatchObject({ decision: 'require', rule: 'one', approvals: 1 });
    const four = await review(csvOf(['40', '40', '40', '40']));
    expect(four.rows.map((x) => x.verdict?.rule)).toEqual(['one', 'one', 'usdt-velocity', 'usdt-velocity']);
    expect(four.verdict).toMatchObject({ decision: 'require', rule: 'usdt-velocity', approvals: 2, drafter_may_approve: false });

    // Queued and signed by its drafter (whose signature this rule does not count), it waits for two others; rejected instead, every row is reported skipped.
    const queued = await call<ChannelResponse<'payoutsQueue'>>(
      core.invoke('payoutsQueue', { ...file(csvOf(['40', '40', '40', '40'])), rows: [1, 2, 3, 4] }),
    );
    await signTicket(queued.ticket);
    expect(await call(core.invoke('payoutsProgress', { ref: queued.ref }))).toMatchObject({ state: 'waiting', needed: 2, approved_by: [] });
    const reject = await call<{ ticket: string }>(
      core.invoke('approvalsDecide', { ref: queued.ref, action: 'reject', reason: 'wrong month' }),
    );
    await signTicket(reject.ticket);
    const rejected = await call<ChannelResponse<'payoutsProgress'>>(core.invoke('payoutsProgress', { ref: queued.ref }));
    expect(rejected).toMatchObject({ state: 'rejected', counts: { pending: 0, sent: 0, refused: 0, skipped: 4 } });
    expect(rejected.rows[0]!.sentence).toBe('The batch was rejected: this row was never sent.');
  }, 60_000);
});
