import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalsState } from '../../../shared/ipc.ts';
import { enrolmentFingerprint } from '../operators/enrolment.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { CHANNEL } from './pgStore.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import {
  bobApproves,
  draftWithdrawal,
  intentAt,
  ok,
  openTeamCore,
  PASS,
  TRX,
  twoApprovalsFor,
  withdrawalsAtExchange,
  type Desk,
} from './testkit/sandboxTeam.ts';

// Two desks, two data folders, one team store on a real PostgreSQL and one real Sandbox: Bob makes his
// key at desk B and Alice proposes him at desk A by its enrolment code, so his private key never leaves
// B; Alice drafts a withdrawal at A under a policy that needs a second operator, Bob approves it at B,
// and the money leaves once, from the desk that drafted it.

const missing = postgresMissing();

describe.skipIf(missing !== null)(`two desks sharing a team store${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-two-desks', { limits: false });
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  it('sends a withdrawal drafted at one desk and approved at the other exactly once, from the drafting desk', async () => {
    const url = await server.newDatabase('two_desks');
    const a = openTeamCore(sb, 'a', { url });
    const b = openTeamCore(sb, 'b', { url });
    // Desk C is the team's auditor desk: it reads and verifies everything and signs and sends nothing.
    const c = openTeamCore(sb, 'c', { url, auditor: true });
    try {
      const alice = (await ok<{ id: string }>(a.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice }))).id;
      // Bob makes his key at his own desk; only its enrolment code (id and public key) goes to desk A.
      // His key's fingerprint he reads to Alice apart from the code.
      const made = await ok<{ id: string; enrolment: string; fingerprint: string }>(
        b.invokeConfirm('confirmMakeOperatorKey', { name: 'Bob', passphrase: PASS.Bob }),
      );
      const propose = (name: string, enrolment: string, heard = made.fingerprint) =>
        a.invokeConfirm('confirmProposeOperator', { name, enrolment, enrolment_fingerprint: heard, by: alice, passphrase: PASS.Alice });
      const refused = async (p: ReturnType<typeof propose>) => {
        const r = await p;
        return r.ok ? 'accepted' : r.error.message;
      };
      expect(await refused(propose('Bob', 'tdop1.bob.not-a-key'))).toMatch(/enrolment code has a public key that is not base64/);
      expect(await refused(propose('Bob', made.enrolment.replace(/\.[^.]+$/, '.AAAA')))).toMatch(
        /enrolment code has a malformed public key/,
      );
      const alicePublic = (
        JSON.parse(readFileSync(join(sb.dir, 'a', 'approvals', 'operators', `${alice}.json`), 'utf8')) as { public_key: string }
      ).public_key;
      expect(await refused(propose('Bob', `tdop1.${made.id}.${alicePublic}`, enrolmentFingerprint(alicePublic)))).toMatch(
        /^That public key is Alice's already/,
      );
      // A relay that carried the code put a key of its own in it: Bob's fingerprint, read aloud, does not match.
      const relayed = await ok<{ enrolment: string }>(b.invokeConfirm('confirmMakeOperatorKey', { name: 'Mallory', passphrase: PASS.Bob }));
      const swapped = `tdop1.${made.id}.${relayed.enrolment.split('.')[2]!}`;
      expect(await refused(propose('Bob', swapped))).toMatch(
        /^The fingerprint you typed does not match the key in the enrolment code: the code was changed on its way/,
      );
      expect(await refused(propose('Bob', made.enrolment, 'not heard'))).toMatch(/^The fingerprint you typed is not one/);
      expect(
        await refused(
          a.invokeConfirm('confirmProposeOperator', { name: 'Bob', enrolment: made.enrolment, by: alice, passphrase: PASS.Alice }),
        ),
      ).toMatch(/fingerprint the new operator read to you/);
      // None of the refused proposals reached the record.
      expect((await ok<ApprovalsState>(a.invoke('approvalsState', {}))).operators.map((o) => o.name)).toEqual(['Alice']);
      // Dashes, spaces and case as Alice typed what she heard.
      const bob = (await ok<{ id: string }>(propose('Bob', made.enrolment, made.fingerprint.toLowerCase().replace(/-/g, ' ')))).id;
      expect(bob).toBe(made.id);
      expect(await refused(propose('Robert', made.enrolment))).toMatch(/^That public key is Bob's already/);
      // No key of Bob's was ever at desk A.
      expect(readdirSync(join(sb.dir, 'a', 'approvals', 'operators'))).toEqual([`${alice}.json`]);
      await twoApprovalsFor(a, alice);

      const ref = await draftWithdrawal(a, alice, '125');

      // Desk B sees Alice's request waiting for a second operator, and Bob approves it there.
      await expect
        .poll(async () => (await ok<ApprovalsState>(b.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)?.state)
        .toBe('waiting');
      // Desk C hears of it by the store's notice too, which on a busy machine may come after B's.
      await expect
        .poll(async () => (await ok<ApprovalsState>(c.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)?.state)
        .toBe('waiting');
      const audited = await ok<ApprovalsState>(c.invoke('approvalsState', {}));
      expect(audited.items.find((i) => i.ref === ref)).toMatchObject({ state: 'waiting', drafted_by: 'Alice' });
      expect(audited.read_only).toMatch(/^this is an auditor desk/);
      expect((await ok<ApprovalsState>(b.invoke('approvalsState', {}))).read_only).toBeUndefined();
      for (const [channel, req] of [
        ['approvalsDecide', { ref, action: 'approve' }],
        ['approvalsFreeze', { reason: 'auditor says stop' }],
        ['approvalsDraft', { write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '1', address: TRX, chain: 'TRX' } } }],
      ] as const) {
        const r = await c.invoke(channel, req);
        expect(r.ok ? null : r.error.message, channel).toMatch(/auditor desk/);
      }
      await bobApproves(b, bob, ref);

      // Desk A hears of it and sends; desk B sends nothing.
      await expect.poll(async () => (await intentAt(a, ref))?.state, { timeout: 20_000 }).toBe('accepted');
      const sent = (await intentAt(a, ref))!;
      await adminCall(sb.creds, 'POST', `/withdrawals/${sent.exchange_id!}/status`, { status: 'DONE' });
      expect(await intentAt(b, ref)).toBeUndefined();
      expect(await intentAt(c, ref)).toBeUndefined();

      // Each desk's Approvals page says where the request was drafted and where each operator signed it.
      const desksAt = async (desk: Desk) =>
        (await ok<ApprovalsState>(desk.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)!.desks!;
      const [seenA, seenB] = [await desksAt(a), await desksAt(b)];
      expect(seenA.drafted).toBe(seenA.here);
      expect(seenB.drafted).toBe(seenA.here);
      expect(seenB.here).not.toBe(seenA.here);
      expect(seenB.signed).toEqual([
        { name: 'Alice', desk: seenA.here },
        { name: 'Bob', desk: seenB.here },
      ]);

      expect((await withdrawalsAtExchange(sb, ref)).map((w) => [w.amount, w.status])).toEqual([['125', 'DONE']]);

      // What decided it is recorded in the row that decided it, signed by the desk that wrote it: every desk reads the same.
      const decidedAt = async (desk: Desk) =>
        (await ok<ApprovalsState>(desk.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)!.decided;
      const recorded = await decidedAt(a);
      expect(recorded).toMatchObject({ rule: expect.any(String), quorum: expect.any(Number) });
      expect(await decidedAt(b)).toEqual(recorded);
      expect(await decidedAt(c)).toEqual(recorded);

      // Someone with the database's password doubles the amount Alice signed: both desks' Approvals pages say so, naming the row.
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const decidedRows = await db.query<{ n: string }>(`SELECT count(*) AS n FROM governance_records WHERE entry LIKE $1`, [
          `%"ref":"${ref}"%"decided":{%`,
        ]);
        expect(Number(decidedRows.rows[0]!.n)).toBe(1);
        const row = await db.query<{ seq: number }>(`SELECT seq FROM governance_records WHERE entry LIKE '%"what":"request"%'`);
        await db.query(`UPDATE governance_records SET entry = replace(entry, '125', '250') WHERE seq = $1`, [row.rows[0]!.seq]);
        await db.query('SELECT pg_notify($1, $2)', [CHANNEL, '999']);
        for (const desk of [a, b, c]) {
          await expect
            .poll(async () => {
              const r = await desk.invoke('approvalsState', {});
              return r.ok ? null : r.error;
            })
            .toMatchObject({
              label: 'TEAM_STORE_TAMPERED',
              message: expect.stringMatching(`^Team store record ${row.rows[0]!.seq} is refused as tampering`),
            });
        }
      } finally {
        await db.end();
      }
    } finally {
      await a.close();
      await b.close();
      await c.close();
    }
  }, 120_000);
});
