import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { BatchSpec } from '../../../shared/api/batch.ts';
import type { IntentView } from '../../../shared/ipc.ts';
import type { HttpRequest, WriteClient } from '../writes/lookups.ts';
import type { BatchPort } from '../payouts/service.ts';
import { DustService } from './service.ts';

// What the core drafts from a selection: the amounts it reads itself with each account's key, one write
// per account and currency, and nothing while a conversion of the same balance is still under way.

const REQUIRE = { decision: 'require', rule: 'confirm-every-write', approvals: 1, drafter_may_approve: true, rules: [] } as const;

function account(items: { currency: string; available_balance: string }[]): WriteClient {
  return {
    request: async <S extends z.ZodType>(req: HttpRequest, schema: S) => {
      if (req.path !== '/wallet/small_balance') throw new Error(`unexpected ${req.path}`);
      return schema.parse(items.map((i) => ({ ...i, estimated_as_btc: '0.00000001', convertible_to_gt: '0.01' }))) as z.output<S>;
    },
  };
}

function service(unfinished: Partial<IntentView>[] = []) {
  const specs: BatchSpec[] = [];
  const batch = {
    reviewBatch: async (spec: BatchSpec) => {
      specs.push(spec);
      return {
        rows: spec.writes.map((w) => ({
          kind: w.write.kind,
          body: { ...(w.write.input as object) },
          verdict: REQUIRE,
          destination_note: null,
        })),
        verdict: REQUIRE,
        totals: [],
        facts: [],
      };
    },
  } as unknown as BatchPort;
  const clients: Record<string, WriteClient> = {
    main: account([{ currency: 'TRX', available_balance: '8.2' }]),
    '101': account([{ currency: 'DOGE', available_balance: '11.5' }]),
  };
  const s = new DustService({
    clientOf: (a) => {
      const c = clients[a];
      if (!c) throw new Error(`This profile holds no key for sub-account ${a}.`);
      return c;
    },
    subAccounts: () => ['101'],
    batch: () => batch,
    intent: () => undefined,
    unfinished: () => unfinished as IntentView[],
    lowCap: async () => [],
  });
  return { s, specs };
}

describe('a conversion as the core drafts it', () => {
  it("takes each amount from the account's own list, signed by that account's key", async () => {
    const { s, specs } = service();
    const r = await s.review([
      { account: 'main', currency: 'TRX' },
      { account: '101', currency: 'DOGE' },
    ]);
    expect(r.rows.map((x) => [x.account, x.currency, x.amount])).toEqual([
      ['main', 'TRX', '8.2'],
      ['101', 'DOGE', '11.5'],
    ]);
    expect(specs[0]!.writes).toEqual([
      { write: { kind: 'small_balance_convert', input: { currency: 'TRX', amount: '8.2' } }, note: 'small balance main TRX' },
      {
        write: { kind: 'small_balance_convert', input: { currency: 'DOGE', amount: '11.5', sub_uid: '101' } },
        note: 'small balance 101 DOGE',
      },
    ]);
    expect(specs[0]!.batch).toBe('small_balance');
  });

  it('refuses a balance selected twice, and one whose conversion is still under way', async () => {
    await expect(
      service().s.review([
        { account: '101', currency: 'DOGE' },
        { account: '101', currency: 'DOGE' },
      ]),
    ).rejects.toThrow('DOGE of sub-account 101 is selected twice.');
    const busy = service([{ kind: 'small_balance_convert', signer: '101', body: { currency: 'DOGE', amount: '2' }, state: 'unconfirmed' }]);
    await expect(busy.s.review([{ account: '101', currency: 'DOGE' }])).rejects.toThrow(
      'A conversion of DOGE of sub-account 101 is still under way (unconfirmed): nothing was queued. Wait for it to end.',
    );
    // Another account's conversion of the same currency is no obstacle.
    expect((await busy.s.review([{ account: 'main', currency: 'TRX' }])).rows).toHaveLength(1);
  });
});
