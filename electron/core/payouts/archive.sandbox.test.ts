import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChannelResponse } from '../../../shared/ipc.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// Payout batches stay listed until an operator archives them (docs/payouts.md): the list is the core's,
// so a batch is still there after navigating away and after the desk restarts on the same data folder;
// a batch under way cannot be archived; an archived one stays off the list, its report kept.

const PASS = 'payout archive passphrase';
const ADDRESS = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
let core: (Core & ConfirmCore) | undefined;
let operator = '';
const sb = useSandbox('payouts-archive', { limits: false });
const open = () => openDesk({ home: join(sb.dir, 'desk'), sandboxCredentialsPath: sb.credentialsPath, coolingOffMs: 0, log: () => {} });

async function call<T>(p: Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error!.message);
  return r.data as T;
}
const sign = (ticket: string) => call(core!.invokeConfirm('confirmSign', { ticket, operator, passphrase: PASS }));
const listed = () => call<ChannelResponse<'payoutsBatches'>>(core!.invoke('payoutsBatches', {}));

afterAll(async () => {
  await core?.close();
});

describe('payout batches across restarts', () => {
  it('lists a finished batch with its counts and totals after a restart until it is archived, and not after', async () => {
    core = open();
    operator = (await call<{ id: string }>(core.invokeConfirm('confirmCreateFirstOperator', { name: 'Payer', passphrase: PASS }))).id;
    await sign(
      (await call<{ ticket: string }>(core.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address: ADDRESS }))).ticket,
    );
    const csv = `currency,chain,address,amount,reference\nUSDT,TRX,${ADDRESS},11,INV-1\nUSDT,TRX,${ADDRESS},12,INV-2\n`;
    const file = { file: 'march.csv', content_base64: Buffer.from(csv).toString('base64') };
    const queued = await call<ChannelResponse<'payoutsQueue'>>(core.invoke('payoutsQueue', { ...file, rows: [1, 2] }));
    // Waiting for its drafter's signature, it is under way: listed, not archivable.
    expect((await listed()).find((b) => b.ref === queued.ref)).toMatchObject({ state: 'drafted', archivable: false });
    await expect(call(core.invoke('payoutsArchive', { ref: queued.ref }))).rejects.toThrow(/still under way \(2 of 2 rows to go\)/);
    await sign(queued.ticket);
    await expect
      .poll(async () => (await listed()).find((b) => b.ref === queued.ref)?.counts.pending, { timeout: 30_000, interval: 200 })
      .toBe(0);

    await core.close();
    core = open();
    const item = (await listed()).find((b) => b.ref === queued.ref);
    expect(item).toMatchObject({
      file: 'march.csv',
      rows: 2,
      counts: { pending: 0, sent: 2, refused: 0, skipped: 0 },
      totals: [{ currency: 'USDT', amount: '23' }],
      archivable: true,
    });

    expect(await call(core.invoke('payoutsArchive', { ref: queued.ref }))).toEqual({ archived: true });
    expect((await listed()).map((b) => b.ref)).not.toContain(queued.ref);
    expect((await call<{ rows: number }>(core.invoke('payoutsReport', { ref: queued.ref }))).rows).toBe(2);
    await core.close();
    core = open();
    expect((await listed()).map((b) => b.ref)).not.toContain(queued.ref);
  }, 90_000);
});
