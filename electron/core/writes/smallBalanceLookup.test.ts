import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { bucketFor } from '../../../shared/api/rateLimits.ts';
import { NetworkError } from '../errors.ts';
import { Journal } from '../journal/journal.ts';
import { testJournalKey } from '../journal/testkit/key.ts';
import { WriteExecutor } from './executor.ts';
import { wireRequest } from './inputs.ts';
import type { HttpRequest, WriteClient } from './lookups.ts';

// A small-balance conversion has no id: a lost answer is settled by the account's history and balance.
// One account's exchange, scripted in memory: its DOGE balance, its conversion history, and what happens
// to each POST (lost before it converts, lost after, or answered).

type Fate = 'lost_before' | 'lost_after' | 'answered';

class DustExchange implements WriteClient {
  doge = '3';
  history: { id: string; currency: string; amount: string; gt_amount: string; create_time: number }[] = [];
  posts: unknown[] = [];
  lookups = 0;
  constructor(
    private readonly fates: Fate[],
    private readonly nowS: () => number,
  ) {}

  async request<S extends z.ZodType>(req: HttpRequest, schema: S): Promise<z.output<S>> {
    const answer = (v: unknown) => schema.parse(v) as z.output<S>;
    if (req.method === 'POST' && req.path === '/wallet/small_balance') {
      this.posts.push(req.body);
      const fate = this.fates.shift() ?? 'answered';
      if (fate === 'lost_before') throw new NetworkError('no answer within 300 ms', undefined, { timedOut: true });
      if (this.doge !== '0') {
        this.history.unshift({
          id: String(this.history.length + 1),
          currency: 'DOGE',
          amount: this.doge,
          gt_amount: '0.05',
          create_time: this.nowS(),
        });
        this.doge = '0';
      }
      if (fate === 'lost_after') throw new NetworkError('no answer within 300 ms', undefined, { timedOut: true });
      return answer(undefined);
    }
    if (req.path === '/wallet/small_balance_history') {
      this.lookups += 1;
      return answer(this.history);
    }
    if (req.path === '/spot/accounts') return answer([{ currency: 'DOGE', available: this.doge, locked: '0' }]);
    throw new Error(`unexpected ${req.method} ${req.path}`);
  }
}

let dir: string;
let journal: Journal;
let executor: WriteExecutor | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dust-'));
  journal = Journal.open(join(dir, 'journal.jsonl'), { key: testJournalKey });
});
afterEach(async () => {
  await executor?.stop();
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

const convert = { kind: 'small_balance_convert' as const, input: { currency: 'DOGE', amount: '3' } };

function run(fates: Fate[]): DustExchange {
  // Each conversion a second after the one before, as the exchange's clock runs.
  let tick = 0;
  const ex = new DustExchange(fates, () => Math.floor(Date.now() / 1000) + tick++);
  executor = new WriteExecutor({ journal, client: ex, settleMs: 200, lookupIntervalMs: 50 });
  return ex;
}

describe('a small-balance conversion whose answer is lost', () => {
  it('sends {"currency": [name]} only, on the wallet bucket of the signing account', () => {
    expect(wireRequest('small_balance_convert', { currency: 'DOGE', amount: '3' })).toEqual({
      method: 'POST',
      path: '/wallet/small_balance',
      body: { currency: ['DOGE'] },
      priority: 'action',
    });
    // §8.2 "other wallet endpoints": 200 per 10 s per endpoint, counted per account (UID).
    expect(bucketFor('POST', '/wallet/small_balance').rule).toMatchObject({ id: 'wallet_other', limit: 200, windowSec: 10, scope: 'uid' });
  });

  it('converted, then the answer lost: found in the history, never sent again', async () => {
    const ex = run(['lost_after']);
    const v = await executor!.submit(convert, 'op');
    expect(v).toMatchObject({ state: 'done', attempts: 1, exchange_id: '1' });
    expect(ex.posts).toHaveLength(1);
  });

  it('lost before it converted: the balance still holds it and the history has nothing, over the settling time, so it is sent again once', async () => {
    const ex = run(['lost_before']);
    const v = await executor!.submit(convert, 'op');
    expect(v).toMatchObject({ state: 'done', attempts: 2, exchange_id: '1' });
    expect(ex.posts).toHaveLength(2);
    expect(ex.history).toHaveLength(1);
  });

  it('answered: the history record is journaled as its id, and a later conversion does not claim it', async () => {
    const ex = run(['answered', 'lost_after']);
    expect(await executor!.submit(convert, 'op')).toMatchObject({ state: 'done', exchange_id: '1' });
    ex.doge = '2';
    expect(await executor!.submit({ ...convert, input: { currency: 'DOGE', amount: '2' } }, 'op')).toMatchObject({
      state: 'done',
      exchange_id: '2',
      attempts: 1,
    });
    expect(ex.posts).toHaveLength(2);
  });

  it('no record, yet the balance is gone: proves nothing, so it is asked again and never resent', async () => {
    const ex = run(['lost_before']);
    // Converted by hand on the exchange's site while its history lags: no record, and no balance.
    ex.doge = '0';
    const driving = executor!.submit(convert, 'op');
    await expect.poll(() => ex.lookups, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(6);
    expect(journal.intents()[0]!.state).toBe('unconfirmed');
    expect(ex.posts).toHaveLength(1);
    await executor!.stop();
    await driving;
  });
});
