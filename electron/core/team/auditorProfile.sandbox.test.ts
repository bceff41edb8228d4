import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_CHANNEL_NAMES } from '../../../shared/confirm.ts';
import type { ConfirmState } from '../../../shared/confirm.ts';
import { CHANNEL_NAMES, type ApprovalsState, type ProfileSummary, type TeamVerifyAnswer } from '../../../shared/ipc.ts';
import { createCore, type ConfirmCore, type Core } from '../core.ts';
import { AUDITOR_CHANNELS, AUDITOR_CONFIRM_CHANNELS } from '../profiles/auditor.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { DeskVault } from '../vault/vault.ts';
import { deskPrivateKey, linkOf, newDeskKey, signEntry } from './envelope.ts';
import { CHANNEL } from './pgStore.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import { ok } from '../testkit/sandboxCore.ts';

// An auditor profile (no exchange key) at a desk of a team, on a real PostgreSQL and a real Sandbox: it
// sees desk A's request and who drafted it where, every write, ticket and signature it is asked for is
// refused by its core, and Verify of the team's records names a row inserted by SQL.

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const ALICE = 'alice passphrase 1';
const missing = postgresMissing();

type Desk = Core & ConfirmCore;

describe.skipIf(missing !== null)(`an auditor profile on a team${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-auditor-profile', { limits: false });
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  /** A desk of the team on the Sandbox's domain; only the auditor's desk keeps stored profiles (a vault). */
  async function openDesk(folder: string, url: string, vaulted = false): Promise<Desk> {
    const dataDir = join(sb.dir, folder);
    mkdirSync(join(dataDir, 'approvals', 'operators'), { recursive: true });
    let vault: DeskVault | undefined;
    if (vaulted) {
      vault = DeskVault.open({ path: join(dataDir, 'vault.json'), scrypt: { N: 2 ** 10, r: 8, p: 1 } });
      await vault.setPassphrase(undefined, 'auditor vault passphrase');
    }
    return createCore({
      profile: { ...sandboxProfile(sb.credentialsPath), limitsOff: true },
      dataDir,
      ...(vault ? { vault } : {}),
      log: () => {},
      coolingOffMs: 0,
      // No `auditor` here: the auditor-ness comes from the active profile.
      team: { url, domain: 'sandbox' },
    });
  }

  it('sees the queue, refuses every write and signature in its core, and Verify names a forged row', async () => {
    const url = await server.newDatabase('auditor_profile');
    const a = await openDesk('a', url);
    const c = await openDesk('c', url, true);
    try {
      // Desk A: Alice and Bob, a destination, a policy that needs two operators, and a withdrawal drafted under it.
      const alice = (await ok<{ id: string }>(a.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: ALICE }))).id;
      // Bob, so that a policy of two operators does not wedge the team (his key stays at desk A: he need not sign here).
      await ok(
        a.invokeConfirm('confirmProposeOperator', { name: 'Bob', new_passphrase: 'bob passphrase 22', by: alice, passphrase: ALICE }),
      );
      const entry = await ok<{ ticket: string }>(a.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address: TRX }));
      await ok(a.invokeConfirm('confirmSign', { ticket: entry.ticket, operator: alice, passphrase: ALICE }));
      const policy = { rules: [{ id: 'two', match: {}, action: 'require' as const, approvals: 2, drafter_may_approve: true }] };
      const change = await ok<{ ticket: string }>(a.invoke('approvalsProposePolicy', { policy }));
      await ok(a.invokeConfirm('confirmSign', { ticket: change.ticket, operator: alice, passphrase: ALICE }));
      await expect.poll(async () => (await ok<ApprovalsState>(a.invoke('approvalsState', {}))).policy.rules).toEqual(policy.rules);
      const draft = await ok<{ ticket: string }>(
        a.invoke('approvalsDraft', {
          write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '125', address: TRX, chain: 'TRX' } },
        }),
      );
      const ref = (await ok<ConfirmState>(a.invokeConfirm('confirmState', {}))).tickets.find((x) => x.id === draft.ticket)!.ref;
      await ok(a.invokeConfirm('confirmSign', { ticket: draft.ticket, operator: alice, passphrase: ALICE }));

      // Desk C: an auditor profile of the Sandbox, made and chosen as Settings does.
      const auditor = await ok<ProfileSummary>(c.invoke('profileSaveAuditor', { name: 'Audit', environment: 'sandbox' }));
      expect(auditor).toMatchObject({ auditor: true, key_masked: '', sub_keys: [] });
      await ok(c.invoke('profileSelect', { id: auditor.id }));

      const seenA = await ok<ApprovalsState>(a.invoke('approvalsState', {}));
      const here = seenA.items.find((i) => i.ref === ref)!.desks!.here;
      // Desk C hears of A's records by the store's notice (within a second, not at once).
      await expect
        .poll(async () => (await ok<ApprovalsState>(c.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)?.state)
        .toBe('waiting');
      const audited = await ok<ApprovalsState>(c.invoke('approvalsState', {}));
      expect(audited.read_only).toMatch(/^this is an auditor profile: it has no exchange key/);
      expect(audited.items.find((i) => i.ref === ref)).toMatchObject({
        state: 'waiting',
        drafted_by: 'Alice',
        desks: { drafted: here, signed: [{ name: 'Alice', desk: here }] },
      });
      expect(seenA.read_only).toBeUndefined();

      // Every channel that is not a read of the desk's or the team's records is refused by the core, saying why,
      // whatever the payload: a script in the window gets no further than a hidden button would.
      const refusedChannels = CHANNEL_NAMES.filter((n) => !AUDITOR_CHANNELS.has(n));
      expect(refusedChannels).toEqual(
        expect.arrayContaining(['approvalsDraft', 'approvalsDecide', 'approvalsFreeze', 'writePrepare', 'totalBalance']),
      );
      const valid = {
        approvalsDecide: { ref, action: 'approve' },
        approvalsFreeze: { reason: 'auditor says stop' },
        approvalsDraft: { write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '1', address: TRX, chain: 'TRX' } } },
      } as Record<string, unknown>;
      for (const channel of refusedChannels) {
        const r = await c.invoke(channel, valid[channel] ?? {});
        expect(r.ok ? null : r.error, channel).toMatchObject({
          label: 'AUDITOR_PROFILE',
          message: expect.stringMatching(/^This is an auditor profile: it has no exchange key/),
        });
      }
      for (const channel of CONFIRM_CHANNEL_NAMES.filter((n) => !AUDITOR_CONFIRM_CHANNELS.has(n))) {
        const r = await c.invokeConfirm(channel, { ticket: 'x', operator: alice, passphrase: ALICE, name: 'Mallory', reason: 'stuck' });
        expect(r.ok ? null : r.error, channel).toMatchObject({ label: 'AUDITOR_PROFILE' });
      }
      // Nothing waits for a signature at the auditor's desk, and it keeps no journal of writes.
      expect((await ok<ConfirmState>(c.invokeConfirm('confirmState', {}))).tickets).toEqual([]);
      expect(await ok(c.invoke('journalStatus', {}))).toMatchObject({ state: 'none' });
      // Its Journal page reads: the desk's own records (none of its own) and their Verify answer.
      expect((await c.invoke('journalEntries', {})).ok).toBe(true);
      expect((await c.invoke('journalVerify', {})).ok).toBe(true);

      // Verify at both desks: every row from the pinned founding record on.
      const verified = await ok<TeamVerifyAnswer>(c.invoke('teamVerify', {}));
      const atA = await ok<TeamVerifyAnswer>(a.invoke('teamVerify', {}));
      if (!verified.team || !atA.team) throw new Error('both desks are on the team');
      expect(verified.refused).toBeNull();
      expect(verified.verified).toBe(verified.rows);
      expect(verified.rows).toBeGreaterThanOrEqual(4);
      expect(verified.founding).toMatch(/^[0-9a-f]{64}$/);
      expect(verified).toEqual(atA);

      // Someone with the database's password appends a row under a desk key no operator vouched for.
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const { rows } = await db.query<{ seq: number; entry: string }>(
          'SELECT seq, entry FROM governance_records ORDER BY seq DESC LIMIT 1',
        );
        const last = JSON.parse(rows[0]!.entry) as Record<string, unknown>;
        const seq = rows[0]!.seq + 1;
        const forger = newDeskKey();
        const forged = JSON.stringify({
          ...last,
          seq,
          prev: linkOf(rows[0]!.entry),
          desk: { ...(last.desk as object), key: forger.publicKey },
        });
        await db.query('INSERT INTO governance_records (seq, entry, sig) VALUES ($1, $2, $3)', [
          seq,
          forged,
          signEntry(deskPrivateKey(forger.privatePem), forged),
        ]);
        await db.query('SELECT pg_notify($1, $2)', [CHANNEL, String(seq)]);
        const after = await ok<TeamVerifyAnswer>(c.invoke('teamVerify', {}));
        expect(after).toEqual({
          team: true,
          rows: seq,
          verified: seq - 1,
          last_link: verified.last_link,
          founding: verified.founding,
          refused: { seq, reason: 'its desk was not vouched for by an operator in force' },
        });
        // Its queue is refused too, naming the row, until the row is gone.
        await expect
          .poll(async () => {
            const r = await c.invoke('approvalsState', {});
            return r.ok ? null : r.error;
          })
          .toMatchObject({
            label: 'TEAM_STORE_TAMPERED',
            message: expect.stringMatching(`^Team store record ${seq} is refused as tampering`),
          });
      } finally {
        await db.end();
      }
    } finally {
      await a.close();
      await c.close();
    }
  }, 60_000);
});
