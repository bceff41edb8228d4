import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalsState, ProfileSummary } from '../../../shared/ipc.ts';
import { encodeInvitation, parseInvitation } from '../../../shared/rehearsal.ts';
import { builtInSandbox, rehearsalPath, sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { sandboxCore } from '../testkit/sandboxCore.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import {
  bobApproves,
  draftWithdrawal,
  intentAt,
  ok,
  PASS,
  twoApprovalsFor,
  withdrawalsAtExchange,
  type Desk,
} from './testkit/sandboxTeam.ts';

// A rehearsal team in minutes (docs/team.md §Rehearsing a team): desk A runs its own Sandbox and founds a
// team on a real PostgreSQL; its "Invite a desk" gives one code; desk B, started on a Sandbox of its own,
// joins with it: its built-in Sandbox profile trades on A's Sandbox with a key A's Sandbox made for it,
// under the Sandbox's rules (no 24-hour cooling-off: Bob, proposed at A, signs at B the same minute), and
// B is in A's team. A two-signature withdrawal drafted at A and approved at B lands once, at A's Sandbox.

const missing = postgresMissing();
const DB_PASSWORD = 'rehearsal db password';

describe.skipIf(missing !== null)(`rehearsing a team on the first desk's Sandbox${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sbA = useSandbox('rehearsal-a', { limits: false });
  const sbB = useSandbox('rehearsal-b', { limits: false });
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres('team', { password: DB_PASSWORD });
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  const refusal = async (p: Promise<{ ok: boolean; error?: { message: string } }>) => {
    const r = await p;
    return r.ok ? 'accepted' : r.error!.message;
  };

  it('invites a desk, which joins the Sandbox and the team, and both sign a withdrawal that lands once', async () => {
    const url = await server.newDatabase('rehearsal');
    const a = sandboxCore(sbA, { dataDir: join(sbA.dir, 'a'), sandboxCredentialsPath: sbA.credentialsPath });
    const dirB = join(sbB.dir, 'b');
    let b: Desk = sandboxCore(sbB, { dataDir: dirB, sandboxCredentialsPath: sbB.credentialsPath });
    try {
      // Desk A: Alice, then the team founded on the store.
      const alice = (await ok<{ id: string }>(a.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice }))).id;
      const found = await ok<{ ticket: string }>(a.invoke('teamFound', { url, password: DB_PASSWORD }));
      await ok(a.invokeConfirm('confirmSign', { ticket: found.ticket, operator: alice, passphrase: PASS.Alice }));

      // "Invite a desk": A's Sandbox address, a new key of its main account, the store without its password.
      const invited = await ok<{ invitation: string; sandbox: string; team: { host: string; database: string } | null }>(
        a.invoke('teamInvite', {}),
      );
      expect(invited.sandbox).toBe(sbA.creds.base_url);
      expect(invited.team).toMatchObject({ database: 'rehearsal' });
      expect(invited.invitation).not.toContain(DB_PASSWORD);
      const inv = parseInvitation(invited.invitation);
      expect(inv).toMatchObject({ sandbox: sbA.creds.base_url, uid: sbA.creds.main.uid, team: { url } });
      expect(JSON.stringify(inv)).not.toContain(DB_PASSWORD);
      expect(inv.key).not.toBe(sbA.creds.main.key);

      // Bad input at B changes nothing and says why.
      expect(await refusal(b.invoke('teamJoinRehearsal', { invitation: 'hello' }))).toMatch(/not a rehearsal invitation/);
      expect(await refusal(b.invoke('teamJoinRehearsal', { invitation: invited.invitation.slice(0, 30) }))).toMatch(/damaged/);
      expect(await refusal(b.invoke('teamJoinRehearsal', { invitation: invited.invitation }))).toMatch(/asks for a password/);
      expect(await refusal(b.invoke('teamJoinRehearsal', { invitation: invited.invitation, password: 'wrong' }))).toMatch(
        /refused the password/,
      );
      const forged = { ...inv, key: 'ab'.repeat(16) };
      expect(await refusal(b.invoke('teamJoinRehearsal', { invitation: encodeInvitation(forged), password: DB_PASSWORD }))).toMatch(
        /cannot be used with this invitation: it refused the key \(INVALID_KEY\)/,
      );
      expect(existsSync(rehearsalPath(dirB))).toBe(false);
      expect((await ok<ProfileSummary>(b.invoke('profileCurrent', {}))).base_url).toBe(sbB.creds.base_url);

      // "Join a rehearsal" at B.
      const joined = await ok<{ sandbox: string; team: unknown }>(
        b.invoke('teamJoinRehearsal', { invitation: invited.invitation, password: DB_PASSWORD }),
      );
      expect(joined).toEqual({ sandbox: sbA.creds.base_url, team: 'joined' });
      const current = await ok<ProfileSummary>(b.invoke('profileCurrent', {}));
      expect(current).toMatchObject({ built_in: true, environment: 'sandbox', base_url: sbA.creds.base_url });
      expect(statSync(rehearsalPath(dirB)).mode & 0o777).toBe(0o600);
      expect(readFileSync(rehearsalPath(dirB), 'utf8')).not.toContain(DB_PASSWORD);
      expect((await ok<{ team: { database: string } | null }>(b.invoke('teamStatus', {}))).team).toMatchObject({ database: 'rehearsal' });
      // Bob makes his key at B; Alice proposes him at A by its code; play money: in force at once, at both desks.
      const made = await ok<{ id: string; enrolment: string; fingerprint: string }>(
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
      await expect
        .poll(async () => (await ok<ApprovalsState>(b.invoke('approvalsState', {}))).operators.map((o) => o.name).sort())
        .toEqual(['Alice', 'Bob']);
      await twoApprovalsFor(a, alice);
      const ref = await draftWithdrawal(a, alice, '125');
      await bobApproves(b, bob, ref);

      // A sends it, once, to its own Sandbox; B sends nothing, and nothing reaches B's own Sandbox.
      await expect.poll(async () => (await intentAt(a, ref))?.state, { timeout: 20_000 }).toBe('accepted');
      expect(await intentAt(b, ref)).toBeUndefined();
      expect((await withdrawalsAtExchange(sbA, ref)).map((w) => w.amount)).toEqual(['125']);
      expect(await withdrawalsAtExchange(sbB, ref)).toEqual([]);

      // Restarted, B is still on A's Sandbox (rehearsal.json), and still in the team.
      await b.close();
      expect(builtInSandbox(dirB, sbB.credentialsPath)!.baseUrl).toBe(sbA.creds.base_url);
      b = sandboxCore(sbB, {
        profile: { ...builtInSandbox(dirB, sbB.credentialsPath)!, limitsOff: true },
        dataDir: dirB,
        sandboxCredentialsPath: sbB.credentialsPath,
      });
      expect((await ok<ProfileSummary>(b.invoke('profileCurrent', {}))).base_url).toBe(sbA.creds.base_url);
      expect((await ok<ApprovalsState>(b.invoke('approvalsState', {}))).items.find((i) => i.ref === ref)).toBeDefined();
      // A desk on another desk's Sandbox cannot make keys there: the invitation comes from the first desk.
      expect(await refusal(b.invoke('teamInvite', {}))).toMatch(/rehearses on another desk's Sandbox/);
      // Joining again (the same team) keeps the membership.
      expect(await ok(b.invoke('teamJoinRehearsal', { invitation: invited.invitation, password: DB_PASSWORD }))).toEqual({
        sandbox: sbA.creds.base_url,
        team: 'already',
      });
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);

  it('refuses to make an invitation from a live profile', async () => {
    const live = sandboxCore(sbA, {
      profile: { ...sandboxProfile(sbA.credentialsPath), environment: 'live', limitsOff: true },
      dataDir: join(sbA.dir, 'live'),
      sandboxCredentialsPath: sbA.credentialsPath,
    });
    try {
      expect(await refusal(live.invoke('teamInvite', {}))).toMatch(/^Invitations are made from the built-in Sandbox profile only/);
      // Nor does a live profile join one: its approvals are not the Sandbox's.
      const code = encodeInvitation({
        sandbox: sbA.creds.base_url,
        uid: '10000001',
        key: 'ab'.repeat(16),
        secret: 'cd'.repeat(32),
        team: null,
      });
      expect(await refusal(live.invoke('teamJoinRehearsal', { invitation: code }))).toMatch(/^This desk has no built-in Sandbox profile/);
    } finally {
      await live.close();
    }
  });
});
