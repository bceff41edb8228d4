import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchSpec } from '../../../shared/api/batch.ts';
import { listOf, Withdrawal } from '../../../shared/api/records.ts';
import { ApiClient } from '../client/client.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { Session } from '../session.ts';
import { DeskApprovals } from './deskApprovals.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { SESSION_WRITES } from '../testkit/sandboxCore.ts';

// A batch approved once against a real Sandbox: the operator's one signature covers every row's exact
// body; the dispatcher sends each row once, a freeze stops the rest between rows, and a restarted desk
// sends what was left and nothing twice (counted with the test's own client at the exchange).

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const PASS = 'batch operator passphrase';

interface Desk {
  session: Session;
  approvals: DeskApprovals;
  close(): Promise<void>;
}

function openDesk(): Desk {
  let approvals: DeskApprovals | null = null;
  const session = new Session({
    ...SESSION_WRITES,
    builtIn: { ...sandboxProfile(sb.credentialsPath), limitsOff: true },
    journalDir: join(sb.dir, 'desk', 'journals'),
    hold: (id) => approvals?.frozenReason(id) ?? null,
    onWritesReady: () => void approvals?.dispatch(),
  });
  approvals = new DeskApprovals({
    dataDir: join(sb.dir, 'desk'),
    session,
    vault: null,
    coolingOffMs: 0,
    onChange: () => {},
    log: () => {},
  });
  session.start();
  const a = approvals;
  return {
    session,
    approvals: a,
    close: async () => {
      await a.close();
      await session.close();
    },
  };
}

async function withdrawalsAtExchange(): Promise<Withdrawal[]> {
  const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
  const c = new ApiClient({ baseUrl, credentials, limitsOff: true });
  const now = Math.floor(Date.now() / 1000);
  return c.request(
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
  );
}

const payouts = (amounts: string[]): BatchSpec => ({
  batch: 'payouts',
  title: 'Payouts',
  source: { file: 'payouts.csv', sha256: 'a'.repeat(64) },
  writes: amounts.map((amount, i) => ({
    write: { kind: 'withdrawal', input: { currency: 'USDT', amount, address: TRX, chain: 'TRX' } },
    note: `payouts.csv row ${i + 2}`,
  })),
});

const sb = useSandbox('batch-approvals', { limits: false });
describe('a batch approved once', () => {
  it('sends each row once under its own id; a freeze stops the rest; a restart sends the rest and nothing twice', async () => {
    let desk = openDesk();
    const operator = await desk.approvals.createFirstOperator('Batch operator', PASS, undefined);
    const entry = await desk.approvals.addressBookTicket({ currency: 'USDT', chain: 'TRX', address: TRX });
    await desk.approvals.sign(entry.ticket, operator, PASS);
    const before = (await withdrawalsAtExchange()).length;

    const drafted = await desk.approvals.draftBatch(payouts(['11', '12', '13', '14']));
    expect(drafted.rows.map((r) => r.body.withdraw_order_id)).toEqual(drafted.rows.map((r) => r.ref));
    expect(new Set(drafted.rows.map((r) => r.ref)).size).toBe(4);
    // Drafted is not approved: nothing leaves until the drafter signs in the confirmation window.
    await desk.approvals.sign(drafted.ticket, operator, PASS);
    const status = await desk.approvals.batchStatus(drafted.ref);
    expect(status).toMatchObject({ state: expect.stringMatching(/approved|sent/), needed: 1, approved_by: ['Batch operator'] });

    // Freeze once two rows are out: the dispatcher stops between rows.
    await expect
      .poll(async () => (await withdrawalsAtExchange()).length - before, { timeout: 20_000, interval: 100 })
      .toBeGreaterThanOrEqual(2);
    const freeze = await desk.approvals.ticketFor((a) => a.freezeTicket('check the file'));
    await desk.approvals.sign(freeze.ticket, operator, PASS);
    await desk.approvals.dispatch();
    const handed = drafted.rows.filter((r) => desk.session.active().journal?.intent(r.ref)).length;
    expect(handed).toBeLessThan(4);
    expect((await withdrawalsAtExchange()).length - before).toBeLessThanOrEqual(handed);

    // The desk stops; a new one is unfrozen and finishes the batch.
    await desk.close();
    desk = openDesk();
    const unfreeze = await desk.approvals.ticketFor((a) => a.unfreezeTicket());
    await desk.approvals.sign(unfreeze.ticket, operator, PASS);
    await desk.approvals.dispatch();
    await expect.poll(async () => (await withdrawalsAtExchange()).length - before, { timeout: 30_000, interval: 200 }).toBe(4);
    await desk.approvals.dispatch();
    await new Promise((r) => setTimeout(r, 500));
    const sent = (await withdrawalsAtExchange()).filter((w) => drafted.rows.some((r) => r.ref === w.withdraw_order_id));
    expect(sent.map((w) => w.amount).sort()).toEqual(['11', '12', '13', '14']);
    expect((await desk.approvals.batchStatus(drafted.ref))?.state).toBe('sent');
    await desk.close();
  }, 90_000);

  it('counts the whole batch against a velocity rule, though each row alone stays under it', async () => {
    const desk = openDesk();
    const operator = (await desk.approvals.confirmState()).operators[0]!.id;
    // Two approvals need two operators: the desk refuses a policy that would wedge it.
    await desk.approvals.proposeOperator('Second operator', 'second operator passphrase', operator, PASS);
    const policy = {
      rules: [
        {
          id: 'usdt-velocity',
          match: { kinds: ['withdrawal' as const], currencies: ['USDT'], velocity_24h_at_least: '200' },
          action: 'require' as const,
          approvals: 2,
          drafter_may_approve: true,
        },
        { id: 'one', match: {}, action: 'require' as const, approvals: 1, drafter_may_approve: true },
      ],
    };
    const proposed = await desk.approvals.ticketFor((a) => a.policyTicket(desk.session.active().id, policy));
    await desk.approvals.sign(proposed.ticket, operator, PASS);
    // 50 USDT went out above; three rows of 60 reach 230 only together.
    const single = await desk.approvals.reviewBatch(payouts(['60']));
    expect(single.verdict).toMatchObject({ decision: 'require', rule: 'one', approvals: 1 });
    const review = await desk.approvals.reviewBatch(payouts(['60', '60', '60']));
    expect(review.rows.map((r) => r.verdict.rule)).toEqual(['one', 'one', 'usdt-velocity']);
    expect(review.verdict).toMatchObject({ decision: 'require', rule: 'usdt-velocity', approvals: 2 });
    expect(review.totals).toEqual([{ currency: 'USDT', amount: '180' }]);
    // A bad row is named by its index, and nothing is drafted.
    const bad = payouts(['60', '-1']);
    await expect(desk.approvals.draftBatch(bad)).rejects.toMatchObject({ path: ['writes', 1, 'write'] });
    expect((await desk.approvals.state()).items.filter((i) => i.what === 'batch')).toHaveLength(1);
    await desk.close();
  }, 60_000);

  it('finishes a row an earlier run journaled without its approval (a crash between the two records)', async () => {
    const desk = openDesk();
    const operator = (await desk.approvals.confirmState()).operators[0]!.id;
    const before = (await withdrawalsAtExchange()).length;
    const drafted = await desk.approvals.draftBatch(payouts(['21', '22']));
    const [first] = drafted.rows;
    desk.session
      .active()
      .journal!.append({ type: 'intent', intent: first!.ref, kind: 'withdrawal', client_id: first!.ref, body: first!.body });
    await desk.approvals.sign(drafted.ticket, operator, PASS);
    await expect.poll(async () => (await withdrawalsAtExchange()).length - before, { timeout: 20_000, interval: 200 }).toBe(2);
    await desk.approvals.dispatch();
    expect(desk.session.active().journal!.intent(first!.ref)?.state).toMatch(/accepted|done/);
    await desk.close();
  }, 60_000);
});
