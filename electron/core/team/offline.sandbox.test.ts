import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOf, Withdrawal } from '../../../shared/api/records.ts';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { ApprovalsState, IntentView } from '../../../shared/ipc.ts';
import { ApiClient } from '../client/client.ts';
import { createCore, type ConfirmCore, type Core } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { CHANNEL } from './pgStore.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';

// The team store stopped with requests in the queue: nothing governed leaves, the queue says the store is
// offline and why, the desk's own reads go on, and a freeze pressed meanwhile is kept at the desk. Started
// again: the freeze is posted before anything is read from the store, every request is still there, and a
// desk that was away catches up and verifies every record again (refusing one edited meanwhile).

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const PASS = { Alice: 'alice passphrase 1', Bob: 'bob passphrase 22' };
const missing = postgresMissing();

type Desk = Core & ConfirmCore;

async function ok<T>(p: Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error!.message);
  return r.data as T;
}

describe.skipIf(missing !== null)(`a team store stopped mid-queue${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-offline', { limits: false });
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  function openDesk(folder: string, url: string): Desk {
    const dataDir = join(sb.dir, folder);
    mkdirSync(join(dataDir, 'approvals', 'operators'), { recursive: true });
    return createCore({
      profile: { ...sandboxProfile(sb.credentialsPath), limitsOff: true },
      dataDir,
      log: () => {},
      coolingOffMs: 0,
      team: { url, domain: 'sandbox' },
    });
  }

  const stateOf = async (desk: Desk) => {
    const r = await desk.invoke('approvalsState', {});
    return r.ok ? (r.data as ApprovalsState) : r.error;
  };

  it('loses nothing, sends nothing while offline, and posts a freeze pressed offline on reconnection', async () => {
    const url = await server.newDatabase('offline');
    const a = openDesk('a', url);
    let b = openDesk('b', url);
    try {
      const alice = (await ok<{ id: string }>(a.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice }))).id;
      // Bob's key is made at his own desk; desk A proposes him by its enrolment code.
      const made = await ok<{ enrolment: string; fingerprint: string }>(
        b.invokeConfirm('confirmMakeOperatorKey', { name: 'Bob', passphrase: PASS.Bob }),
      );
      const bob = (
        await ok<{ id: string }>(
          a.invokeConfirm('confirmProposeOperator', {
            name: 'Bob',
            enrolment: made.enrolment,
            enrolment_fingerprint: made.fingerprint,
            by: alice,
            passphrase: PASS.Alice,
          }),
        )
      ).id;
      const entry = await ok<{ ticket: string }>(a.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address: TRX }));
      await ok(a.invokeConfirm('confirmSign', { ticket: entry.ticket, operator: alice, passphrase: PASS.Alice }));
      const policy = { rules: [{ id: 'two', match: {}, action: 'require' as const, approvals: 2, drafter_may_approve: true }] };
      const change = await ok<{ ticket: string }>(a.invoke('approvalsProposePolicy', { policy }));
      await ok(a.invokeConfirm('confirmSign', { ticket: change.ticket, operator: alice, passphrase: PASS.Alice }));
      await expect.poll(async () => (await ok<ApprovalsState>(a.invoke('approvalsState', {}))).policy.rules).toEqual(policy.rules);

      // Three withdrawals in the queue; Bob approves the first, and desk A sends it.
      const refs: string[] = [];
      for (const amount of ['11', '12', '13']) {
        const draft = await ok<{ ticket: string }>(
          a.invoke('approvalsDraft', { write: { kind: 'withdrawal', input: { currency: 'USDT', amount, address: TRX, chain: 'TRX' } } }),
        );
        refs.push((await ok<ConfirmState>(a.invokeConfirm('confirmState', {}))).tickets.find((x) => x.id === draft.ticket)!.ref);
        await ok(a.invokeConfirm('confirmSign', { ticket: draft.ticket, operator: alice, passphrase: PASS.Alice }));
      }
      const approve = async (ref: string): Promise<void> => {
        await expect
          .poll(async () => (await ok<ApprovalsState>(b.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)?.state)
          .toBe('waiting');
        const t = await ok<{ ticket: string }>(b.invoke('approvalsDecide', { ref, action: 'approve' }));
        await ok(b.invokeConfirm('confirmSign', { ticket: t.ticket, operator: bob, passphrase: PASS.Bob }));
      };
      const intentAt = async (desk: Desk, ref: string): Promise<IntentView | undefined> =>
        (await ok<{ items: IntentView[] }>(desk.invoke('intentsList', {}))).items.find((v) => v.id === ref);
      await approve(refs[0]!);
      await expect.poll(async () => (await intentAt(a, refs[0]!))?.state, { timeout: 20_000 }).toBe('accepted');
      // Desk B is away while the store is down; it comes back afterwards.
      await b.close();

      await server.stop();
      // The queue says the store is offline, and why.
      await expect
        .poll(() => stateOf(a), { timeout: 20_000 })
        .toMatchObject({
          label: 'TEAM_STORE_OFFLINE',
          message: expect.stringMatching(/^The team store is offline \(.+\)\. Nothing governed is sent until it is back\.$/),
        });
      // The desk's own reads go on; nothing governed is drafted, so nothing governed is sent.
      expect((await intentAt(a, refs[0]!))?.state).toBe('accepted');
      const offline = await a.invoke('approvalsDraft', {
        write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '14', address: TRX, chain: 'TRX' } },
      });
      expect(offline.ok ? null : offline.error).toMatchObject({ label: 'TEAM_STORE_OFFLINE' });

      // Alice freezes the desk while the store is down: signed against the operators last read, kept here.
      const freeze = await ok<{ ticket: string }>(a.invoke('approvalsFreeze', { reason: 'store down, hold everything' }));
      const confirm = await ok<ConfirmState>(a.invokeConfirm('confirmState', {}));
      expect(confirm.operators.map((o) => o.name).sort()).toEqual(['Alice', 'Bob']);
      await ok(a.invokeConfirm('confirmSign', { ticket: freeze.ticket, operator: alice, passphrase: PASS.Alice }));
      expect(existsSync(join(sb.dir, 'a', 'approvals', 'team', 'kept-freezes.json'))).toBe(true);

      await server.start();
      // Desk A hears the store again, posts the freeze, and shows it.
      await expect
        .poll(async () => (await stateOf(a)) as ApprovalsState, { timeout: 20_000 })
        .toMatchObject({ frozen: { by: 'Alice', reason: 'store down, hold everything' } });

      // Desk B comes back: it reads every record from the founding one, and finds the whole queue and the freeze.
      b = openDesk('b', url);
      const back = await ok<ApprovalsState>(b.invoke('approvalsState', {}));
      expect(back.frozen).toMatchObject({ by: 'Alice' });
      expect(refs.map((r) => back.items.find((i) => i.ref === r)?.state)).toEqual(['sent', 'waiting', 'waiting']);

      const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
      const exchange = new ApiClient({ baseUrl, credentials, limitsOff: true });
      for (const [i, ref] of refs.entries()) {
        const w = await exchange.request(
          { method: 'GET', path: '/wallet/withdrawals', query: [['withdraw_order_id', ref]] },
          listOf(Withdrawal),
        );
        expect(w).toHaveLength(i === 0 ? 1 : 0);
      }

      // A row edited while desk B was away is refused when it comes back: it verifies again, not from memory.
      await b.close();
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        // The third request's amount, inside its signed payload (a JSON string in the entry).
        const edited = await db.query(`UPDATE governance_records SET entry = replace(entry, $1, $2) WHERE strpos(entry, $1) > 0`, [
          String.raw`\"amount\":\"13\"`,
          String.raw`\"amount\":\"31\"`,
        ]);
        expect(edited.rowCount).toBe(1);
        await db.query('SELECT pg_notify($1, $2)', [CHANNEL, '999']);
      } finally {
        await db.end();
      }
      b = openDesk('b', url);
      expect(await stateOf(b)).toMatchObject({ label: 'TEAM_STORE_TAMPERED' });
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);
});
