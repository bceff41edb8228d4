import { describe, expect, it } from 'vitest';
import type { IntentView } from '../../../shared/ipc.ts';
import type { WithdrawalRow } from '../../../shared/history.ts';
import { sendGoverned } from '../approvals/testkit/governed.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore } from '../testkit/sandboxCore.ts';

// A withdrawal the desk sent is shown on the Withdrawals page before the exchange's list is read again:
// the core answers it as sent and not yet listed, until a read of the list holds its order id. Real core,
// real Sandbox; the list is read only when the test asks.

const sb = useSandbox('sent-unlisted', { limits: false });

describe('a sent withdrawal before the list holds it', () => {
  it('is answered as sent and unlisted at once, and leaves that answer once the list is read with it', async () => {
    const core = sandboxCore(sb, { history: { syncEveryMs: 3_600_000 } });
    try {
      await ok(core.invoke('historySync', {}));
      const unlisted = async () => (await ok<{ items: IntentView[] }>(core.invoke('withdrawalsSentUnlisted', {}))).items;
      expect(await unlisted()).toEqual([]);
      const sent = await sendGoverned(core, {
        kind: 'withdrawal',
        input: { currency: 'USDT', chain: 'TRX', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', amount: '25' },
      });
      expect(sent.state).toBe('accepted');
      expect((await unlisted()).map((i) => [i.client_id, i.state, i.exchange_id])).toEqual([
        [sent.client_id, 'accepted', sent.exchange_id],
      ]);

      await ok(core.invoke('historySync', {}));
      expect(await unlisted()).toEqual([]);
      const page = await ok<{ rows: WithdrawalRow[] }>(core.invoke('withdrawalsList', { filters: { search: sent.client_id! } }));
      expect(page.rows.map((r) => r.withdraw_order_id)).toEqual([sent.client_id]);
    } finally {
      await core.close();
    }
  }, 120_000);
});
