import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listOf, Withdrawal } from '../../../shared/api/records.ts';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { ApprovalsState, IntentView } from '../../../shared/ipc.ts';
import { ApiClient } from '../client/client.ts';
import { createCore, type ConfirmCore, type Core } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';

// Exactly one desk sends: desk A drafts a withdrawal, desk B approves it, desk A takes the send lease
// with the hand-over and sends; the Sandbox commits the withdrawal and holds its answer, and desk A's
// core (a process of its own) is SIGKILLed before it hears it. Desk B takes the expired lease over, asks
// the exchange by the withdrawal's id, finds it, and sends nothing: the Sandbox holds it once.

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const PASS = { Alice: 'alice passphrase 1', Bob: 'bob passphrase 22' };
const LEASE_MS = 1500;
const missing = postgresMissing();
const runner = join(import.meta.dirname, 'testkit', 'teamDeskRunner.ts');
const tsx = createRequire(import.meta.url).resolve('tsx');

type Desk = Core & ConfirmCore;

async function ok<T>(p: Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error!.message);
  return r.data as T;
}

describe.skipIf(missing !== null)(`a sending desk killed mid-send${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-lease', { limits: false });
  let server: TestPostgres;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  function openDesk(folder: string, url: string): Desk {
    const dataDir = join(sb.dir, folder);
    mkdirSync(join(dataDir, 'approvals', 'operators'), { recursive: true });
    return createCore({
      profile: { ...sandboxProfile(sb.credentialsPath), limitsOff: true },
      dataDir,
      log: () => {},
      coolingOffMs: 0,
      team: { url, domain: 'sandbox', leaseMs: LEASE_MS },
    });
  }

  function withdrawalsOf(ref: string): Promise<Withdrawal[]> {
    const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
    const exchange = new ApiClient({ baseUrl, credentials, limitsOff: true });
    return exchange.request({ method: 'GET', path: '/wallet/withdrawals', query: [['withdraw_order_id', ref]] }, listOf(Withdrawal));
  }

  it('lets another desk take the lease over, look the withdrawal up, and send nothing twice', async () => {
    const url = await server.newDatabase('lease_takeover');
    // Desk A's operators, address and policy, drafted in this process; then desk A is closed and runs in a child.
    const a = openDesk('a', url);
    const b = openDesk('b', url);
    let ref: string;
    let bob: string;
    try {
      const alice = (await ok<{ id: string }>(a.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice }))).id;
      // Bob's key is made at his own desk; desk A proposes him by its enrolment code.
      const made = await ok<{ enrolment: string; fingerprint: string }>(
        b.invokeConfirm('confirmMakeOperatorKey', { name: 'Bob', passphrase: PASS.Bob }),
      );
      bob = (
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
      const draft = await ok<{ ticket: string }>(
        a.invoke('approvalsDraft', {
          write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '77', address: TRX, chain: 'TRX' } },
        }),
      );
      ref = (await ok<ConfirmState>(a.invokeConfirm('confirmState', {}))).tickets.find((x) => x.id === draft.ticket)!.ref;
      await ok(a.invokeConfirm('confirmSign', { ticket: draft.ticket, operator: alice, passphrase: PASS.Alice }));
    } finally {
      await a.close();
    }

    try {
      // The Sandbox commits desk A's withdrawal and then holds the connection without an answer.
      await adminCall(sb.creds, 'POST', '/faults', {
        kind: 'timeout_after_commit',
        path: '/wallet/withdrawals',
        method: 'POST',
        every: 1,
        times: 1,
        hang_ms: 60_000,
      });
      const child = spawn(process.execPath, ['--import', tsx, runner, join(sb.dir, 'a'), sb.credentialsPath, url, String(LEASE_MS)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const err: string[] = [];
      createInterface({ input: child.stderr! }).on('line', (l) => err.push(l));
      const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_c, s) => r(s)));
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (l) => l === 'READY' && resolve());
        child.once('exit', () => reject(new Error(`desk A exited: ${err.join('\n')}`)));
      });

      // Bob approves at desk B; desk A hands it over under its lease and sends.
      await expect
        .poll(async () => (await ok<ApprovalsState>(b.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)?.state)
        .toBe('waiting');
      const approve = await ok<{ ticket: string }>(b.invoke('approvalsDecide', { ref, action: 'approve' }));
      await ok(b.invokeConfirm('confirmSign', { ticket: approve.ticket, operator: bob, passphrase: PASS.Bob }));
      await expect.poll(async () => (await withdrawalsOf(ref)).length, { timeout: 20_000, interval: 50 }).toBe(1);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      // The lease row says desk A held it when it died.
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      const lease = async () =>
        (await db.query<{ owner: string; taken_over: number }>('SELECT owner, taken_over FROM send_leases WHERE ref = $1', [ref])).rows[0];
      const heldByA = await lease();
      expect(heldByA?.taken_over).toBe(0);

      // Desk B takes it over once it expires, finds the withdrawal at the exchange, and journals both.
      const intentAt = async (desk: Desk): Promise<IntentView | undefined> =>
        (await ok<{ items: IntentView[] }>(desk.invoke('intentsList', {}))).items.find((v) => v.id === ref);
      await expect.poll(async () => (await intentAt(b))?.state, { timeout: 20_000 }).toBe('accepted');
      expect((await intentAt(b))!.note).toMatch(/^taken over from desk-[0-9a-f]{12}, whose send lease expired/);
      const taken = await lease();
      expect(taken?.owner).not.toBe(heldByA!.owner);
      expect(taken?.taken_over).toBe(1);
      await db.end();

      const w = await withdrawalsOf(ref);
      expect(w.map((x) => x.amount)).toEqual(['77']);
      expect((await intentAt(b))!.exchange_id).toBe(w[0]!.id);
    } finally {
      await b.close();
    }
  }, 120_000);
});
