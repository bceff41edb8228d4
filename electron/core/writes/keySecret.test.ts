import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { NetworkError } from '../errors.ts';
import { Journal } from '../journal/journal.ts';
import { testJournalKey } from '../journal/testkit/key.ts';
import { WriteExecutor } from './executor.ts';
import type { HttpRequest, WriteClient } from './lookups.ts';

// A created key's secret, between the exchange's answer and the vault: handed to the key sink, wiped,
// never journaled. When the answer is lost, the key is found by the name the desk gave it, and the desk
// says plainly that it holds no secret for it instead of pretending, or making another.

const SECRET = 'S3CRETfromTHEanswer0123456789abcdef';
let dir: string;
let journal: Journal;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'key-secret-'));
  journal = Journal.open(join(dir, 'journal.jsonl'), { key: testJournalKey });
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An exchange of one sub-account's keys: the create may lose its answer after the key is made. */
function exchange(loseAnswer: boolean): WriteClient & { made: string[]; posts: number } {
  const made: string[] = [];
  const x = {
    made,
    posts: 0,
    async request<S extends z.ZodType>(req: HttpRequest, schema: S): Promise<z.output<S>> {
      if (req.method === 'POST' && req.path === '/sub_accounts/101/keys') {
        x.posts++;
        const name = String((req.body as { name: string }).name);
        made.push(name);
        if (loseAnswer) throw new NetworkError('the connection closed before the answer', undefined, { timedOut: true });
        return schema.parse({ user_id: 101, name, key: 'AKnew0123456789', secret: SECRET, state: 1 });
      }
      if (req.method === 'GET' && req.path === '/sub_accounts/101/keys')
        return schema.parse(made.map((name) => ({ user_id: 101, name, key: 'AKnew0123456789', state: 1 })));
      throw new Error(`unexpected ${req.method} ${req.path}`);
    },
  };
  return x;
}

const create = {
  kind: 'sub_account_key_create' as const,
  input: { user_id: '101', label: 'ops', perms: [{ name: 'wallet' as const, read_only: false }] },
};

describe("a created key's secret", () => {
  it('goes to the key sink only: the journal holds the key and its name, never the secret', async () => {
    const kept: { uid: string; key: string; secret: string }[] = [];
    const x = exchange(false);
    const executor = new WriteExecutor({
      journal,
      client: x,
      keySink: (uid, key, secret) => void kept.push({ uid, key, secret: secret.toString('utf8') }),
    });
    const v = await executor.submit(create, 'tester');
    expect(v).toMatchObject({ state: 'done', exchange_id: 'AKnew0123456789', client_id: x.made[0] });
    expect(kept).toEqual([{ uid: '101', key: 'AKnew0123456789', secret: SECRET }]);
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).not.toContain(SECRET);
    expect(JSON.stringify(journal.intents())).not.toContain(SECRET);
  });

  it('lost with its answer: the key is found by its name, not made twice, and the desk says it holds no secret', async () => {
    const kept: string[] = [];
    const x = exchange(true);
    const executor = new WriteExecutor({
      journal,
      client: x,
      settleMs: 200,
      lookupIntervalMs: 20,
      keySink: (_u, key) => void kept.push(key),
    });
    const v = await executor.submit(create, 'tester');
    expect(x.posts).toBe(1);
    expect(kept).toEqual([]);
    expect(v.state).toBe('needs_attention');
    expect(v.reason).toMatch(/the desk holds no secret for it .*Disable that key, then create another/);
  });

  it('with no place to keep it: the key is reported made without a usable secret', async () => {
    const executor = new WriteExecutor({ journal, client: exchange(false) });
    const v = await executor.submit(create, 'tester');
    expect(v.state).toBe('needs_attention');
    expect(v.reason).toMatch(/this desk keeps no sub-account keys/);
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).not.toContain(SECRET);
  });
});
