import { describe, expect, it } from 'vitest';
import type { IntentView } from '../../../shared/ipc.ts';
import { sendGoverned } from '../approvals/testkit/governed.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore } from '../testkit/sandboxCore.ts';

// A placed order's own record says where it stands once the desk cancelled it: the cancel's answer (the
// order as it then stood) is the order's latest known status, so Activity's row of the order reads
// cancelled, like the cancel's own row. Real core, real Sandbox.

const sb = useSandbox('cancel-status', { limits: false });

describe("an order's record after its cancel", () => {
  it('takes the status the cancel answered, and is finished', async () => {
    const core = sandboxCore(sb);
    try {
      const placed = await sendGoverned(core, {
        kind: 'spot_order',
        input: {
          currency_pair: 'BTC_USDT',
          side: 'buy',
          type: 'limit',
          account: 'spot',
          amount: '0.01',
          price: '20000',
          time_in_force: 'gtc',
        },
      });
      expect(placed.status).toBe('open');
      const cancel = await sendGoverned(core, {
        kind: 'spot_cancel',
        input: { currency_pair: 'BTC_USDT', order_id: placed.exchange_id! },
      });
      expect(cancel.status).toBe('cancelled');
      const order = (await ok<{ items: IntentView[] }>(core.invoke('intentsList', {}))).items.find((i) => i.id === placed.id)!;
      expect(order).toMatchObject({ status: 'cancelled', state: 'done' });
    } finally {
      await core.close();
    }
  }, 120_000);
});
