import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { ApprovalsState, TeamConnectionTest, TeamStatus } from '../../../shared/ipc.ts';
import { createCore, type ConfirmCore, type Core } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import { pgConnection } from './url.ts';

// Founding and joining a team through the desk's channels, as Settings does: desk A founds the team in
// an empty store with its own records (its first operator vouching in the confirmation window), desk B
// joins it with the founding record A shows, and after a restart B is still in the team and sees A's
// request. A store whose founding record is not the one pinned is refused; bad input changes nothing;
// the database's password is in no file of either data folder and in no answer, event or log line.

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const PASS = { Alice: 'alice passphrase 1', Bob: 'bob passphrase 22', Carol: 'carol passphrase 3' };
const DB_PASSWORD = 'pg-Secret-4f9c1e77';
const missing = postgresMissing();

type Desk = Core & ConfirmCore;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

describe.skipIf(missing !== null)(`joining a team from Settings${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-joining', { limits: false });
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres('team', { password: DB_PASSWORD });
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  /** Every answer, event and log line of every desk, to look for the password in. */
  const seen: string[] = [];
  const opened: Desk[] = [];

  function openDesk(folder: string, team?: { url: string; founding: string }): Desk {
    const dataDir = join(sb.dir, folder);
    mkdirSync(join(dataDir, 'approvals', 'operators'), { recursive: true });
    const core = createCore({
      profile: { ...sandboxProfile(sb.credentialsPath), limitsOff: true },
      dataDir,
      log: (line) => seen.push(line),
      coolingOffMs: 0,
      ...(team ? { team: { ...team, domain: 'sandbox' as const, password: DB_PASSWORD } } : {}),
    });
    core.subscribe((event, payload) => seen.push(`${event} ${JSON.stringify(payload)}`));
    opened.push(core);
    return core;
  }

  async function call<T>(desk: Desk, channel: string, payload: unknown, confirm = false): Promise<T> {
    const r = confirm ? await desk.invokeConfirm(channel, payload) : await desk.invoke(channel, payload);
    seen.push(JSON.stringify(r));
    if (!r.ok) throw new Error(r.error.message);
    return r.data as T;
  }

  async function refusal(desk: Desk, channel: string, payload: unknown): Promise<string> {
    const r = await desk.invoke(channel, payload);
    seen.push(JSON.stringify(r));
    if (r.ok) throw new Error(`${channel} was not refused: ${JSON.stringify(r.data)}`);
    return r.error.message;
  }

  it('founds at one desk, joins at another with its pin, keeps the team across a restart, and refuses another founding record', async () => {
    const url = await server.newDatabase('joining');
    const conn = { url, password: DB_PASSWORD };
    const a = openDesk('a');
    let b = openDesk('b');
    try {
      const alice = (await call<{ id: string }>(a, 'confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice }, true)).id;
      // Bob makes his key at desk B before it joins; only its enrolment code goes to desk A.
      const made = await call<{ enrolment: string; fingerprint: string }>(
        b,
        'confirmMakeOperatorKey',
        { name: 'Bob', passphrase: PASS.Bob },
        true,
      );
      const bob = (
        await call<{ id: string }>(
          a,
          'confirmProposeOperator',
          { name: 'Bob', enrolment: made.enrolment, enrolment_fingerprint: made.fingerprint, by: alice, passphrase: PASS.Alice },
          true,
        )
      ).id;
      expect(readdirSync(join(sb.dir, 'a', 'approvals', 'operators'))).toEqual([`${alice}.json`]);
      const entry = await call<{ ticket: string }>(a, 'addressBookAdd', { currency: 'USDT', chain: 'TRX', address: TRX });
      await call(a, 'confirmSign', { ticket: entry.ticket, operator: alice, passphrase: PASS.Alice }, true);
      const policy = { rules: [{ id: 'two', match: {}, action: 'require' as const, approvals: 2, drafter_may_approve: true }] };
      const change = await call<{ ticket: string }>(a, 'approvalsProposePolicy', { policy });
      await call(a, 'confirmSign', { ticket: change.ticket, operator: alice, passphrase: PASS.Alice }, true);
      await expect.poll(async () => (await call<ApprovalsState>(a, 'approvalsState', {})).policy.rules).toEqual(policy.rules);
      const localJournal = join(sb.dir, 'a', 'approvals', 'governance-sandbox.jsonl');
      const journalBefore = readFileSync(localJournal, 'utf8');

      // Bad input is refused, naming the problem, and changes nothing.
      expect(await refusal(a, 'teamFound', { url: 'mysql://desk@127.0.0.1/team' })).toMatch(/postgresql:\/\/ URL/);
      expect(await refusal(a, 'teamFound', { url: 'postgresql://desk@db.example.com/team', password: DB_PASSWORD })).toMatch(
        /on another machine: add sslmode=verify-full/,
      );
      expect(await refusal(a, 'teamFound', { url })).toMatch(/asks for a password/);
      expect(await refusal(a, 'teamFound', { url, password: 'not the password' })).toMatch(/refused the password/);
      expect(existsSync(join(sb.dir, 'a', 'team.json'))).toBe(false);
      expect(await call<TeamStatus>(a, 'teamStatus', {})).toEqual({ domain: 'sandbox', team: null });

      // Desk A founds the team: a ticket its first operator signs in the confirmation window.
      expect(await call<TeamConnectionTest>(a, 'teamTest', conn)).toMatchObject({ reached: true, team: { records: 0 } });
      const found = await call<{ ticket: string; title: string }>(a, 'teamFound', conn);
      expect(found.title).toMatch(/^Found a team on 127\.0\.0\.1:\d+\/joining with this desk's \d+ governance records/);
      const waiting = await call<ConfirmState>(a, 'confirmState', {}, true);
      expect(waiting.tickets.find((t) => t.id === found.ticket)).toMatchObject({ what: 'team' });
      // Only the first operator founds: their passphrase vouches for the desk.
      await expect(
        call(a, 'confirmSign', { ticket: found.ticket, operator: alice, passphrase: 'wrong passphrase' }, true),
      ).rejects.toThrow();
      await call(a, 'confirmSign', { ticket: found.ticket, operator: alice, passphrase: PASS.Alice }, true);
      const statusA = await call<TeamStatus>(a, 'teamStatus', {});
      expect(statusA).toMatchObject({
        domain: 'sandbox',
        team: { host: `127.0.0.1:${server.port}`, database: 'joining', how: 'founded', state: 'online', reason: null },
      });
      const founding = statusA.team!.founding!;
      expect(founding).toMatch(/^[0-9a-f]{64}$/);
      expect(readFileSync(localJournal, 'utf8')).toBe(journalBefore);
      expect(await refusal(a, 'teamFound', conn)).toMatch(/on the team store at 127\.0\.0\.1:\d+\/joining already/);
      // Founding only an empty store: another desk asked to found this one is told to join it.
      expect(await refusal(b, 'teamFound', conn)).toMatch(
        /holds a team already \(\d+ records, founding record [0-9a-f]{64}\): join it instead/,
      );

      // Alice drafts a request the team's policy holds for a second operator.
      const draft = await call<{ ticket: string }>(a, 'approvalsDraft', {
        write: { kind: 'withdrawal', input: { currency: 'USDT', amount: '42', address: TRX, chain: 'TRX' } },
      });
      const ref = (await call<ConfirmState>(a, 'confirmState', {}, true)).tickets.find((x) => x.id === draft.ticket)!.ref;
      await call(a, 'confirmSign', { ticket: draft.ticket, operator: alice, passphrase: PASS.Alice }, true);

      // Desk B: the connection test shows the founding record; a different one typed in is refused.
      expect(await call<TeamConnectionTest>(b, 'teamTest', conn)).toMatchObject({ reached: true, team: { founding } });
      expect(await refusal(b, 'teamJoin', { ...conn, founding: '0'.repeat(64) })).toMatch(
        new RegExp(`founding record of the team store at 127\\.0\\.0\\.1:\\d+/joining is ${founding}, not 0{64}`),
      );
      expect(existsSync(join(sb.dir, 'b', 'team.json'))).toBe(false);
      // With no operator of its own, the Sandbox desk joins at once, and its Approvals page is the team's queue.
      expect(await call(b, 'teamJoin', { ...conn, founding })).toEqual({ joined: true });
      expect((await call<ApprovalsState>(b, 'approvalsState', {})).items.find((i) => i.ref === ref)).toMatchObject({
        state: 'waiting',
        drafted_by: 'Alice',
      });
      expect(await call<TeamStatus>(b, 'teamStatus', {})).toMatchObject({ team: { how: 'joined', founding, state: 'online' } });

      // Restarted on the same data folder, desk B is still in the team.
      await b.close();
      b = openDesk('b');
      expect((await call<ApprovalsState>(b, 'approvalsState', {})).items.find((i) => i.ref === ref)).toMatchObject({ state: 'waiting' });
      expect(await call<TeamStatus>(b, 'teamStatus', {})).toMatchObject({ team: { how: 'joined', founding, state: 'online' } });
      // Bob, whose key was made at desk B, approves there: his passphrase vouches for desk B in the team.
      const approve = await call<{ ticket: string }>(b, 'approvalsDecide', { ref, action: 'approve' });
      await call(b, 'confirmSign', { ticket: approve.ticket, operator: bob, passphrase: PASS.Bob }, true);
      await expect
        .poll(async () => (await call<ApprovalsState>(a, 'approvalsState', {})).items.find((i) => i.ref === ref)?.approved_by)
        .toEqual(['Alice', 'Bob']);

      // Desk A leaves: Alice, an operator of the team, confirms; its approvals are its own journal's again, as they were.
      const leave = await call<{ ticket: string; title: string }>(a, 'teamLeave', {});
      expect(leave.title).toMatch(/^Leave the team on 127\.0\.0\.1:\d+\/joining: .*the team's queue is no longer seen here$/);
      await call(a, 'confirmSign', { ticket: leave.ticket, operator: alice, passphrase: PASS.Alice }, true);
      expect(await call<TeamStatus>(a, 'teamStatus', {})).toEqual({ domain: 'sandbox', team: null });
      const own = await call<ApprovalsState>(a, 'approvalsState', {});
      expect(own.items.find((i) => i.ref === ref)).toBeUndefined();
      expect(own.policy.rules).toEqual(policy.rules);
      expect(readFileSync(localJournal, 'utf8')).toBe(journalBefore);
      expect(await refusal(a, 'teamLeave', {})).toMatch(/there is no team to leave/);

      // Another team (Carol's, founded elsewhere) put in this store's place: refused as tampering by the desk that pinned A's.
      const otherUrl = await server.newDatabase('other');
      const c = openDesk('c');
      const carol = (await call<{ id: string }>(c, 'confirmCreateFirstOperator', { name: 'Carol', passphrase: PASS.Carol }, true)).id;
      const cFound = await call<{ ticket: string }>(c, 'teamFound', { url: otherUrl, password: DB_PASSWORD });
      await call(c, 'confirmSign', { ticket: cFound.ticket, operator: carol, passphrase: PASS.Carol }, true);
      const other = (await call<TeamStatus>(c, 'teamStatus', {})).team!.founding!;
      expect(other).not.toBe(founding);
      // A desk started with A's pin on Carol's store (the core's team option) refuses it.
      const d = openDesk('d', { url: otherUrl, founding });
      expect(await refusal(d, 'teamLeave', {})).toMatch(/started with its team store/);
      expect(await refusal(d, 'approvalsState', {})).toMatch(
        /^Team store record 1 is refused as tampering: it is not the founding record this desk joined/,
      );
      // And desk B, once Carol's records replace the team's in its store.
      const copy = async (): Promise<void> => {
        const from = new pg.Client(pgConnection(otherUrl, DB_PASSWORD));
        const to = new pg.Client(pgConnection(url, DB_PASSWORD));
        await from.connect();
        await to.connect();
        try {
          const rows = (
            await from.query<{ seq: number; entry: string; sig: string }>('SELECT seq, entry, sig FROM governance_records ORDER BY seq')
          ).rows;
          await to.query('BEGIN');
          await to.query('DELETE FROM governance_records');
          for (const r of rows)
            await to.query('INSERT INTO governance_records (seq, entry, sig) VALUES ($1, $2, $3)', [r.seq, r.entry, r.sig]);
          await to.query('COMMIT');
        } finally {
          await from.end();
          await to.end();
        }
      };
      await b.close();
      await copy();
      b = openDesk('b');
      expect(await refusal(b, 'approvalsState', {})).toMatch(/^Team store record 1 is refused as tampering/);
      expect(await call<TeamStatus>(b, 'teamStatus', {})).toMatchObject({ team: { how: 'joined', founding, state: 'tampered' } });

      // The password is in no file of any data folder, and in no answer, event or log line.
      const all = seen.join('\n');
      expect(all).toContain('joining');
      expect(all).not.toContain(DB_PASSWORD);
      for (const folder of ['a', 'b', 'c', 'd']) {
        const files = filesUnder(join(sb.dir, folder));
        expect(files.some((f) => f.endsWith('team.json')) || folder === 'd').toBe(true);
        for (const f of files) expect(readFileSync(f).toString('latin1'), f).not.toContain(DB_PASSWORD);
      }
    } finally {
      for (const desk of opened) await desk.close();
    }
  }, 180_000);
});
