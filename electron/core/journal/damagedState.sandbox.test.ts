import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Withdrawal } from '../../../shared/api/records.ts';
import type { IntentView, Reply } from '../../../shared/ipc.ts';
import { ApiClient } from '../client/client.ts';
import { sendGoverned } from '../approvals/testkit/governed.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { sandboxCore } from '../testkit/sandboxCore.ts';

// A journal that fails verification is a state of the desk, not a crash: reads go on, writes on that
// profile stop with a sentence that says why, and the operator archives it to go on. Nothing from the
// damaged journal is ever sent again: the Sandbox's records are the proof.

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';

function ok<T>(reply: Reply<T>): T {
  if (!reply.ok) throw new Error(`expected success, got ${reply.error.kind}: ${reply.error.message}`);
  return reply.data;
}

function openCore(dataDir: string): Core & ConfirmCore {
  return sandboxCore(sb, { dataDir });
}

/** The Sandbox's own count of withdrawals, read by a client of the test's. */
async function withdrawalsAtExchange(): Promise<number> {
  const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
  const c = new ApiClient({ baseUrl, credentials, limitsOff: true });
  const now = Math.floor(Date.now() / 1000);
  return (
    await c.request(
      {
        method: 'GET',
        path: '/wallet/withdrawals',
        query: [
          ['from', String(now - 86_400)],
          ['to', String(now + 60)],
          ['limit', '1000'],
        ],
      },
      z.array(Withdrawal),
    )
  ).length;
}

const sb = useSandbox('journal-damaged', { limits: false });
describe('a journal with one changed byte', () => {
  it('keeps reads going, stops writes with the reason, and after archiving carries unfinished writes over unsent', async () => {
    const dataDir = join(sb.dir, 'desk');
    let core = openCore(dataDir);
    const sent = await sendGoverned(core, { kind: 'withdrawal', input: { currency: 'USDT', amount: '21', address: TRX, chain: 'TRX' } });
    expect(sent).toMatchObject({ state: 'accepted' });
    ok(
      await core.invoke('writePrepare', {
        write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '22', address: TRX, chain: 'TRX' } },
      }),
    );
    await core.close();
    const before = await withdrawalsAtExchange();

    const path = join(dataDir, 'journals', 'sandbox.jsonl');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('"amount":"21"', '"amount":"91"'));

    core = openCore(dataDir);
    expect(ok(await core.invoke('journalStatus', {}))).toMatchObject({ state: 'damaged', damage: { entry: 1 } });
    expect(ok(await core.invoke('totalBalance', {}))).toHaveProperty('total');
    const refused = await core.invoke('writePrepare', {
      write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '1', address: TRX, chain: 'TRX' } },
    });
    expect(refused).toMatchObject({ ok: false, error: { label: 'JOURNAL_DAMAGED' } });
    expect(!refused.ok && refused.error.message).toMatch(/Entry 1: its MAC does not verify.*Nothing will be sent/);

    const archived = ok(await core.invoke('journalArchive', {})) as { carried_over: number };
    expect(archived.carried_over).toBe(1);
    expect(readdirSync(join(dataDir, 'journals', 'archive'))).toHaveLength(2);
    expect(ok(await core.invoke('journalStatus', {}))).toMatchObject({ state: 'ok', damage: null });
    const intents = (ok(await core.invoke('intentsList', {})) as { items: IntentView[] }).items;
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ id: sent.id, state: 'needs_attention' });
    expect(intents[0]!.reason).toMatch(/failed verification.*will never send it/);
    // The carried-over write is settled by the operator; nothing leaves for it.
    ok(await core.invoke('writeSettle', { id: sent.id, outcome: 'done', note: 'seen at the exchange' }));
    expect(await withdrawalsAtExchange()).toBe(before);
    await core.close();
  });

  it('tells the operator about a torn last line it cut at open, until they acknowledge it', async () => {
    const dataDir = join(sb.dir, 'desk-torn');
    let core = openCore(dataDir);
    ok(
      await core.invoke('writePrepare', {
        write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '23', address: TRX, chain: 'TRX' } },
      }),
    );
    await core.close();
    appendFileSync(join(dataDir, 'journals', 'sandbox.jsonl'), '{"seq":2,"at":"2026-');
    core = openCore(dataDir);
    expect(ok(await core.invoke('journalStatus', {}))).toMatchObject({ state: 'ok', recovered: { line: 2, bytes: 20 } });
    expect((ok(await core.invoke('intentsList', {})) as { items: unknown[] }).items).toHaveLength(1);
    expect(ok(await core.invoke('journalAcknowledgeRecovery', {}))).toMatchObject({ state: 'ok', recovered: null });
    await core.close();
  });
});
