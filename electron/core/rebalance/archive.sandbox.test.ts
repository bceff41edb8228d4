import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BatchView } from '../../../shared/rebalance.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// Batches stay listed until an operator archives them (docs/rebalance.md): a finished rebalance is still
// on the list after the desk restarts on the same data folder, is refused archiving while under way,
// and once archived stays off the list across the next restart too. Nothing of it is forgotten.

const PASS = 'archive operator passphrase';
let core: (Core & ConfirmCore) | undefined;
const sb = useSandbox('rebalance-archive', { limits: false });
const home = () => join(sb.dir, 'desk');
const open = () => openDesk({ home: home(), sandboxCredentialsPath: sb.credentialsPath, coolingOffMs: 0, log: () => {} });

async function call<T>(channel: string, payload: unknown): Promise<T> {
  const r = (await core!.invoke(channel, payload)) as { ok: boolean; data?: unknown; error?: { message: string } };
  if (!r.ok) throw new Error(r.error!.message);
  return r.data as T;
}
const batches = () => call<BatchView[]>('rebalanceBatches', {});

afterAll(async () => {
  await core?.close();
});

describe('rebalance batches across restarts', () => {
  it('lists a finished batch after a restart until it is archived, and not after', async () => {
    core = open();
    const operator = (
      (await core.invokeConfirm('confirmCreateFirstOperator', { name: 'Rebalancer', passphrase: PASS })) as { data: { id: string } }
    ).data.id;
    const scope = await call<{ accounts: { account: { owner: string; kind: string }; balance: string }[] }>('rebalanceScope', {
      currency: 'USDT',
    });
    const subs = scope.accounts.filter((a) => a.account.owner !== 'main' && a.account.kind === 'spot').slice(0, 2);
    const plan = await call<{ id: string }>('rebalancePlan', {
      currency: 'USDT',
      preset: { kind: 'equalize' },
      accounts: subs.map((a) => a.account),
    });
    const { ticket, ref } = await call<{ ticket: string; ref: string }>('rebalanceDraft', { plan: plan.id });
    expect(await core.invokeConfirm('confirmSign', { ticket, operator, passphrase: PASS })).toMatchObject({ ok: true });

    let list: BatchView[] = [];
    for (let i = 0; i < 300 && list.find((b) => b.ref === ref)?.state !== 'finished'; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      list = await batches();
      // Under way it cannot be archived.
      if (list.find((b) => b.ref === ref)?.state === 'running')
        await expect(call('rebalanceArchive', { ref })).rejects.toThrow(/can be archived once it has finished/);
    }
    expect(list.find((b) => b.ref === ref)).toMatchObject({ state: 'finished' });

    await core.close();
    core = open();
    const again = (await batches()).find((b) => b.ref === ref);
    expect(again).toMatchObject({ state: 'finished', title: list.find((b) => b.ref === ref)!.title });
    expect(again!.rows.every((r) => r.state === 'done')).toBe(true);

    expect(await call('rebalanceArchive', { ref })).toEqual({ archived: true });
    expect((await batches()).map((b) => b.ref)).not.toContain(ref);
    // The report is kept: archiving only takes the batch off the list.
    expect((await call<{ rows: number }>('rebalanceReport', { ref })).rows).toBe(again!.rows.length);

    await core.close();
    core = open();
    expect((await batches()).map((b) => b.ref)).not.toContain(ref);
  }, 90_000);
});
