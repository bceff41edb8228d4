import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SubAccountTransfer, Withdrawal } from '../../../shared/api/records.ts';
import { ApiClient } from '../client/client.ts';
import { DeskVault } from '../vault/vault.ts';
import { WriteExecutor } from '../writes/executor.ts';
import type { WriteInput } from '../writes/inputs.ts';
import { headPath } from './head.ts';
import type { IntentView } from './intents.ts';
import { Journal, JournalDamagedError } from './journal.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// The attacks of an adversary who can write the desk's data folder but cannot unlock its vault, tried
// against the real Sandbox: forge entries, cut the journal, restore an old copy of the folder. After
// each, the next run of the desk must send nothing the exchange already holds, checked against the
// Sandbox's own records through a client of the test's own.

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const PASSPHRASE = 'correct horse battery staple';

let exchange: ApiClient;

function client(): ApiClient {
  return new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true, timeoutMs: 2000, maxReadAttempts: 2 });
}

/** What the exchange holds, read by the test's own client. */
async function holdings(): Promise<{ withdrawals: number; subTransfers: number; futuresUsdt: string }> {
  const nowSec = Math.floor(Date.now() / 1000);
  const window: Array<[string, string]> = [
    ['from', String(nowSec - 86_400)],
    ['to', String(nowSec + 60)],
    ['limit', '1000'],
  ];
  const w = await exchange.request({ method: 'GET', path: '/wallet/withdrawals', query: window }, z.array(Withdrawal));
  const t = await exchange.request({ method: 'GET', path: '/wallet/sub_account_transfers', query: window }, z.array(SubAccountTransfer));
  const f = await exchange.request({ method: 'GET', path: '/futures/usdt/accounts' }, z.looseObject({ total: z.string() }));
  return { withdrawals: w.length, subTransfers: t.length, futuresUsdt: f.total };
}

/** One run of the desk over a data folder: its vault (passphrase), its journal, an executor. */
class DeskRun {
  readonly vault: DeskVault;
  readonly journal: Journal;
  readonly writes: WriteExecutor;
  blocked = false;

  private constructor(
    readonly dir: string,
    vault: DeskVault,
  ) {
    this.vault = vault;
    this.journal = Journal.open(join(dir, 'profile-1.jsonl'), { key: () => vault.journalKey() });
    this.writes = new WriteExecutor({
      journal: this.journal,
      client: client(),
      settleMs: 600,
      lookupIntervalMs: 100,
      blocked: () => (this.blocked ? 'held by the test' : null),
    });
  }

  static async start(dir: string): Promise<DeskRun> {
    const vault = DeskVault.open({ path: join(dir, 'vault.json'), scrypt: { N: 2 ** 10, r: 8, p: 1 } });
    if (vault.status().passphrase_set) await vault.unlock(PASSPHRASE);
    else await vault.setPassphrase(undefined, PASSPHRASE);
    return new DeskRun(dir, vault);
  }

  async close(): Promise<void> {
    await this.writes.stop();
    this.journal.close();
    this.vault.lock();
  }
}

const withdrawal = (amount: string): WriteInput => ({
  kind: 'withdrawal',
  input: { currency: 'USDT', amount, address: TRX, chain: 'TRX' },
});
const ownTransfer: WriteInput = {
  kind: 'own_transfer',
  input: { currency: 'USDT', from: 'spot', to: 'futures', amount: '7', settle: 'usdt' },
};
const subTransfer = (): WriteInput => ({
  kind: 'main_sub_transfer',
  input: { sub_account: sb.creds.sub_accounts[0]!.uid, currency: 'USDT', amount: '3', direction: 'to' },
});

/** A folder whose journal holds one finished write of each kind given. */
async function folderWith(writes: WriteInput[]): Promise<string> {
  const dir = mkdtempSync(join(sb.dir, 'desk-'));
  const run = await DeskRun.start(dir);
  for (const w of writes) await run.writes.submit(w, 'op');
  await run.close();
  return dir;
}

async function nextRunDamaged(dir: string): Promise<JournalDamagedError> {
  try {
    const run = await DeskRun.start(dir);
    await run.writes.resume();
    await run.close();
  } catch (e) {
    if (e instanceof JournalDamagedError) return e;
    throw e;
  }
  throw new Error('the next run opened the journal and drove it');
}

async function nextRun(dir: string): Promise<DeskRun> {
  const run = await DeskRun.start(dir);
  await run.writes.resume();
  await run.close();
  return run;
}

function lines(dir: string): string[] {
  return readFileSync(join(dir, 'profile-1.jsonl'), 'utf8').trimEnd().split('\n');
}

function writeLines(dir: string, ls: string[], newline = true): void {
  writeFileSync(join(dir, 'profile-1.jsonl'), ls.join('\n') + (newline ? '\n' : ''));
}

const sb = useSandbox('journal-attacks', { limits: false });
beforeAll(async () => {
  exchange = client();
}, 60_000);

describe('an attacker who can write the data folder', () => {
  it('appends a forged withdrawal and approval with a recomputed SHA-256 chain: nothing leaves, the damage is named', async () => {
    const dir = await folderWith([withdrawal('11')]);
    const before = await holdings();
    const ls = lines(dir);
    let prev = (JSON.parse(ls.at(-1)!) as { mac: string }).mac;
    const forged = [
      {
        type: 'intent',
        intent: 'evil',
        kind: 'withdrawal',
        client_id: 'evil1',
        body: { withdraw_order_id: 'evil1', currency: 'USDT', amount: '5000', address: TRX, chain: 'TRX' },
      },
      { type: 'approval', intent: 'evil', by: 'operator' },
    ].map((body, i) => {
      const t = JSON.stringify({ seq: ls.length + i + 1, at: new Date().toISOString(), prev, ...body });
      prev = createHash('sha256').update(t).digest('hex');
      return `${t.slice(0, -1)},"mac":"${prev}"}`;
    });
    writeLines(dir, [...ls, ...forged]);
    const e = await nextRunDamaged(dir);
    expect(e.damage.entry).toBe(ls.length + 1);
    expect(e.message).toMatch(/MAC does not verify/);
    expect(await holdings()).toEqual(before);
  });

  it('cuts the sent and result of an own-account transfer, or only the final newline: it is not sent again', async () => {
    const dir = await folderWith([ownTransfer]);
    const before = await holdings();
    const ls = lines(dir);
    writeLines(dir, ls, false);
    const run = await nextRun(dir);
    expect(run.journal.intents()[0]?.state).toBe('done');
    writeLines(dir, ls.slice(0, -2));
    const e = await nextRunDamaged(dir);
    expect(e.damage.missing).toBe(2);
    expect(await holdings()).toEqual(before);
  });

  it('cuts a withdrawal back to its intent and approval: found missing; with the old head put back too, looked up, not resent', async () => {
    const dir = mkdtempSync(join(sb.dir, 'desk-'));
    const first = await DeskRun.start(dir);
    first.blocked = true;
    const v = first.writes.prepare(withdrawal('12'));
    await first.writes.approve(v.id, 'op');
    const headAtApproval = readFileSync(headPath(join(dir, 'profile-1.jsonl')));
    first.blocked = false;
    await first.writes.resume();
    await first.close();
    const before = await holdings();
    const ls = lines(dir);
    writeLines(dir, ls.slice(0, 2));
    expect((await nextRunDamaged(dir)).damage.missing).toBe(ls.length - 2);
    writeFileSync(headPath(join(dir, 'profile-1.jsonl')), headAtApproval);
    const run = await nextRun(dir);
    expect(run.journal.intent(v.id)).toMatchObject({ state: 'accepted' });
    expect(await holdings()).toEqual(before);
    const rows = await exchange.request(
      { method: 'GET', path: '/wallet/withdrawals', query: [['withdraw_order_id', v.client_id!]] },
      z.array(Withdrawal),
    );
    expect(rows).toHaveLength(1);
  });

  it('resets the vault and enters the keys again: the old journal no longer verifies and drives nothing', async () => {
    const dir = mkdtempSync(join(sb.dir, 'desk-'));
    const first = await DeskRun.start(dir);
    first.blocked = true;
    await first.writes.approve(first.writes.prepare(withdrawal('14')).id, 'op');
    await first.close();
    const before = await holdings();
    rmSync(join(dir, 'vault.json'));
    const e = await nextRunDamaged(dir);
    expect(e.damage.entry).toBe(1);
    expect(e.message).toMatch(/another key \(another vault/);
    expect(await holdings()).toEqual(before);
  });

  it('restores a copy of the whole folder taken while writes were approved: nothing is sent twice', async () => {
    const dir = mkdtempSync(join(sb.dir, 'desk-'));
    const first = await DeskRun.start(dir);
    first.blocked = true;
    const ids = [];
    for (const w of [withdrawal('13'), ownTransfer, subTransfer()]) {
      const v = first.writes.prepare(w);
      await first.writes.approve(v.id, 'op');
      ids.push(v.id);
    }
    const copy = mkdtempSync(join(sb.dir, 'copy-'));
    cpSync(dir, copy, { recursive: true });
    first.blocked = false;
    await first.writes.resume();
    await first.close();
    const before = await holdings();

    rmSync(dir, { recursive: true });
    cpSync(copy, dir, { recursive: true });
    const run = await nextRun(dir);
    expect(await holdings()).toEqual(before);
    const [w, own, sub] = ids.map((id) => run.journal.intent(id)!) as [IntentView, IntentView, IntentView];
    expect(w.state).toBe('accepted');
    expect(sub.state).toBe('done');
    // No id to look up: never sent again, left to the operator.
    expect(own.state).toBe('needs_attention');
    expect(own.reason).toMatch(/earlier run/);
  });
});
