import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../errors.ts';
import { Journal } from '../journal/journal.ts';
import { testJournalKey } from '../journal/testkit/key.ts';
import { WriteExecutor } from './executor.ts';
import type { HttpRequest, WriteClient } from './lookups.ts';

// The last look before a resend (executor.ts sendOnce): a write proven absent may still land in the
// moment between the lookup that proved it and the resend, so the id is asked once more right before.
// The stand-in exchange below makes that moment certain: its withdrawal appears exactly when the desk,
// having proven it absent, is about to send it again.

let dir: string;
let journal: Journal;
let executor: WriteExecutor;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'resend-lookup-'));
  journal = Journal.open(join(dir, 'journal.jsonl'), { key: testJournalKey });
});

afterEach(async () => {
  await executor.stop();
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the lookup right before a resend', () => {
  it('finds a withdrawal that landed after it was proven absent, and sends it only once', async () => {
    const posts: HttpRequest[] = [];
    let id = '';
    const client: WriteClient = {
      request: async <S extends z.ZodType>(req: HttpRequest, schema: S): Promise<z.output<S>> => {
        if (req.method === 'POST') {
          posts.push(req);
          throw new NetworkError('no answer within the deadline', undefined, { timedOut: true });
        }
        const v = journal.intent(id);
        // Absent while in doubt; there once the desk has proven it absent and is about to resend.
        const landed = v?.state === 'approved' && v.proven_absent === true;
        const woid = String(v?.body.withdraw_order_id ?? '');
        const record = {
          id: 'w1',
          withdraw_order_id: woid,
          timestamp: '1',
          amount: '5',
          fee: '1',
          currency: 'USDT',
          address: 'T',
          chain: 'TRX',
          status: 'DONE',
        };
        return schema.parse(landed ? [record] : []) as z.output<S>;
      },
    };
    executor = new WriteExecutor({ journal, client, settleMs: 20, requestTimeoutMs: 20, lookupIntervalMs: 10 });
    const prepared = executor.prepare({ kind: 'withdrawal', input: { currency: 'USDT', amount: '5', address: 'T', chain: 'TRX' } });
    id = prepared.id;
    const v = await executor.approve(id, 'alice');
    expect(v).toMatchObject({ state: 'done', exchange_id: 'w1', attempts: 1 });
    expect(posts).toHaveLength(1);
  });
});
