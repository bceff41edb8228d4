import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ExchangeError } from '../errors.ts';
import { Journal } from '../journal/journal.ts';
import { testJournalKey } from '../journal/testkit/key.ts';
import { WriteExecutor } from './executor.ts';
import type { HttpRequest, WriteClient } from './lookups.ts';

// §4.1 answers a main/sub transfer with its tx_id only; the desk confirms its §3.3 final status with
// GET /wallet/order_status (by the client_order_id it sent) before calling it done.

let dir: string;
let journal: Journal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tstatus-'));
  journal = Journal.open(join(dir, 'j.jsonl'), { key: testJournalKey });
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An exchange whose /wallet/order_status answers the given statuses in turn (the last one repeats). */
function exchange(statuses: string[]): { client: WriteClient; asked: HttpRequest[] } {
  const asked: HttpRequest[] = [];
  const client: WriteClient = {
    async request<S extends z.ZodType>(req: HttpRequest, schema: S): Promise<z.output<S>> {
      asked.push(req);
      if (req.method === 'POST') return schema.parse({ tx_id: 77 });
      if (req.path !== '/wallet/order_status') throw new ExchangeError(404, 'NOT_FOUND', req.path);
      const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
      return schema.parse({ tx_id: '77', status });
    },
  };
  return { client, asked };
}

const write = {
  kind: 'main_sub_transfer' as const,
  input: { sub_account: '101', currency: 'USDT', amount: '5', direction: 'to' as const },
};

describe("a main/sub transfer's final status", () => {
  it('is confirmed by /wallet/order_status with the client_order_id sent', async () => {
    const { client, asked } = exchange(['SUCCESS']);
    const v = await new WriteExecutor({ journal, client }).submit(write, 'tester');
    expect(v).toMatchObject({ state: 'done', status: 'SUCCESS', exchange_id: '77' });
    const lookup = asked.find((r) => r.path === '/wallet/order_status')!;
    expect(lookup.query).toEqual([['client_order_id', v.client_id]]);
  });

  it('stays accepted while PENDING, and is done once a poll sees SUCCESS', async () => {
    const { client } = exchange(['PENDING', 'SUCCESS']);
    const ex = new WriteExecutor({ journal, client });
    const v = await ex.submit(write, 'tester');
    expect(v).toMatchObject({ state: 'accepted', status: 'PENDING' });
    await ex.pollStatuses();
    expect(journal.intent(v.id)).toMatchObject({ state: 'done', status: 'SUCCESS' });
  });

  it('FAIL means nothing moved: the transfer is refused, not done', async () => {
    const { client } = exchange(['FAIL']);
    const v = await new WriteExecutor({ journal, client }).submit(write, 'tester');
    expect(v.state).toBe('refused');
    expect(v.reason).toMatch(/FAIL/);
  });
});
