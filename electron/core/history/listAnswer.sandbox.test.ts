import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import { WithdrawalPage } from '../../../shared/history.ts';
import { channels } from '../../../shared/ipc.ts';
import { HistoryDb } from '../cache/historyDb.ts';
import type { Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// docs/performance.md §Long lists: the history lists are answered from the core's own SQLite through a typed row mapper and
// not parsed by their zod schema again on the way out; what an edited cache file holds still reaches
// the window in the contract's types. Real core, real Sandbox.

const sb = useSandbox('list-answer', { limits: false });
let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

function withdrawal(n: number) {
  return {
    id: `w9${n}`,
    txid: `tx${n}`,
    block_number: '',
    withdraw_order_id: '',
    timestamp: String(1_700_000_000 + n * 60),
    amount: `${n}.5`,
    fee: '0.1',
    // A currency of the test's own, so that the Sandbox's records stay out of its lists.
    currency: 'QQQ',
    address: `TAddress${n}`,
    type: 'onchain',
    fail_reason: '',
    timestamp2: '',
    memo: '',
    status: 'DONE',
    chain: 'TRX',
  };
}

/** The desk's history cache file, with the test's own records in it and two values edited to the wrong type. */
async function seededHome(name: string): Promise<string> {
  const home = join(sb.dir, name);
  core = openDesk({ home, sandboxCredentialsPath: sb.credentialsPath, log: () => {} });
  expect((await core.invoke('historySync', {})).ok).toBe(true);
  await core.close();
  core = undefined;
  const file = join(
    home,
    'cache',
    readdirSync(join(home, 'cache')).find((f) => f.endsWith('.sqlite'))!,
  );
  const db = new HistoryDb({ path: file });
  db.tx(() => db.upsert('withdrawals', [1, 2, 3].map(withdrawal), isFinalWithdrawalStatus));
  db.flag('withdrawals', 'w92');
  db.close();
  const raw = new Database(file);
  raw.prepare("UPDATE withdrawals SET first_seen = 'yesterday' WHERE key = 'w91'").run();
  raw.prepare("UPDATE unsent SET flagged_at = 'soon', note = 7 WHERE key = 'w92'").run();
  raw.close();
  return home;
}

describe('the history lists on the way out', () => {
  it('are not parsed again by their schema, and hold to it', async () => {
    const home = await seededHome('not-parsed');
    core = openDesk({ home, sandboxCredentialsPath: sb.credentialsPath, log: () => {} });
    const response = channels.withdrawalsList.response;
    const safeParse = vi.spyOn(response, 'safeParse');
    const parse = vi.spyOn(response, 'parse');
    try {
      const reply = await core.invoke('withdrawalsList', { filters: { currency: 'QQQ' }, limit: 10 });
      expect(reply.ok).toBe(true);
      expect(safeParse).not.toHaveBeenCalled();
      expect(parse).not.toHaveBeenCalled();
      const page = reply.ok ? (reply.data as { rows: Array<{ id: string }> }) : { rows: [] };
      expect(page.rows.map((r) => r.id)).toEqual(['w93', 'w92', 'w91']);
      // What the window receives is what the schema would have let through.
      safeParse.mockRestore();
      expect(WithdrawalPage.safeParse(JSON.parse(JSON.stringify(reply.ok && reply.data))).success).toBe(true);
    } finally {
      safeParse.mockRestore();
      parse.mockRestore();
    }
  }, 60_000);

  it('give a time an edited file spoiled as 0 and a note as text, never NaN', async () => {
    const home = await seededHome('edited');
    core = openDesk({ home, sandboxCredentialsPath: sb.credentialsPath, log: () => {} });
    const reply = await core.invoke('withdrawalsList', { filters: { currency: 'QQQ' }, limit: 10 });
    expect(reply.ok).toBe(true);
    const rows = reply.ok ? (reply.data as { rows: Array<{ id: string; desk: { first_seen_at: number; unsent: unknown } }> }).rows : [];
    expect(rows.find((r) => r.id === 'w91')!.desk.first_seen_at).toBe(0);
    expect(rows.find((r) => r.id === 'w92')!.desk.unsent).toMatchObject({ state: 'flagged', flagged_at: 0, note: '7' });
  }, 60_000);

  it("are read once in the background as the profile's history opens, before the window asks for the first", async () => {
    const page = vi.spyOn(HistoryDb.prototype, 'page');
    try {
      core = openDesk({ home: join(sb.dir, 'warm'), sandboxCredentialsPath: sb.credentialsPath, log: () => {} });
      // Any read but the first paint's starts the desk's start-up, which opens the profile's history.
      expect((await core.invoke('historyStatus', {})).ok).toBe(true);
      await vi.waitFor(() => expect(page).toHaveBeenCalledWith('withdrawals', {}, { by: 'time', dir: 'desc' }, 100, undefined, 0));
    } finally {
      page.mockRestore();
    }
  }, 60_000);
});
