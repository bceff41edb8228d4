import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../shared/ipc.ts';
import { sendGoverned } from '../approvals/testkit/governed.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';

// Issue 23 item 2: the desk's own withdrawal reached DONE with no notification when the desk first read
// it already done (sent and finished between two reads). Real core, real Sandbox: the withdrawal is moved
// to DONE at the exchange before the desk's history has read it at all.

let core: Core & ConfirmCore;
const notices: EventPayload<'notify'>[] = [];

const sb = useSandbox('notify', { limits: false });
beforeAll(async () => {
  core = openDesk({ home: join(sb.dir, 'home'), sandboxCredentialsPath: sb.credentialsPath, log: () => {}, coolingOffMs: 0 });
  core.subscribe((event, payload) => event === 'notify' && notices.push(payload as EventPayload<'notify'>));
  expect((await core.invoke('historySync', {})).ok).toBe(true);
});
afterAll(async () => {
  await core?.close();
});

describe('notifications of withdrawals', () => {
  it("tells the desk's own withdrawal that the desk first reads already done", async () => {
    const sent = await sendGoverned(core, {
      kind: 'withdrawal',
      input: { currency: 'USDT', chain: 'TRX', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', amount: '250' },
    });
    expect(sent).toMatchObject({ state: 'accepted' });
    // The journal keeps the number the create call answered; the records list it as "w<number>" (§2.3).
    const id = sent.exchange_id!.replace(/^w?/, 'w');
    await adminCall(sb.creds, 'POST', `/withdrawals/${sent.exchange_id!}/status`, { status: 'DONE' });
    await expect
      .poll(
        async () => {
          await core.invoke('historySync', {});
          return notices.find((n) => n.tag === `withdrawals:${id}`);
        },
        { timeout: 20_000, interval: 250 },
      )
      .toMatchObject({ title: `This desk's withdrawal ${id}: DONE`, body: expect.stringMatching(/^Completed.*250 USDT to TJRab/) });
  });
});
