import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { ApprovalsState, TeamStatus } from '../../../shared/ipc.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { readSandboxCredentials } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';

// The stored profiles' governance on a team store, as the desk runs it (vault, stored profile): the
// connection is sealed by the vault, so a desk restarted locked says nothing of it until the vault is
// unlocked, and then uses the team store again. A desk with operators of its own joins only once one of
// them confirms in the confirmation window.

const VAULT = 'a long enough vault passphrase';
const DB_PASSWORD = 'vault-Team-pg-73b1';
const PASS = { Alice: 'alice passphrase 1', Dora: 'dora passphrase 44' };
const missing = postgresMissing();

type Desk = Core & ConfirmCore;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

describe.skipIf(missing !== null)(`a stored profiles' team store${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-vault', { limits: false });
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres('team', { password: DB_PASSWORD });
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  const seen: string[] = [];
  async function call<T>(desk: Desk, channel: string, payload: unknown, confirm = false): Promise<T> {
    const r = confirm ? await desk.invokeConfirm(channel, payload) : await desk.invoke(channel, payload);
    seen.push(JSON.stringify(r));
    if (!r.ok) throw new Error(r.error.message);
    return r.data as T;
  }

  function open(folder: string): Desk {
    const core = openDesk({ home: join(sb.dir, folder), log: (line) => seen.push(line), coolingOffMs: 0 });
    core.subscribe((event, payload) => seen.push(`${event} ${JSON.stringify(payload)}`));
    return core;
  }

  /** A fresh desk with a stored profile (the Sandbox's main key entered as a live key would be) and its first operator. */
  async function storedDesk(folder: string, operator: keyof typeof PASS): Promise<{ desk: Desk; id: string }> {
    const creds = readSandboxCredentials(sb.credentialsPath);
    const desk = open(folder);
    await call(desk, 'vaultSetPassphrase', { next: VAULT });
    const saved = await call<{ id: string }>(desk, 'profileSave', {
      name: 'Treasury',
      environment: 'futures',
      base_url: creds.base_url,
      svc: 'Svc',
      key: creds.main.key,
      secret: creds.main.secret,
      permissions: { spot: 'write', futures: 'read', delivery: 'none', wallet: 'write', withdraw: 'write', unified: false },
      sub_keys: [],
    });
    await call(desk, 'profileSelect', { id: saved.id });
    const id = (
      await call<{ id: string }>(
        desk,
        'confirmCreateFirstOperator',
        { name: operator, passphrase: PASS[operator], vault_passphrase: VAULT },
        true,
      )
    ).id;
    return { desk, id };
  }

  it('keeps the connection sealed by the vault, uses the team again once unlocked after a restart, and joins with an operator’s consent', async () => {
    const url = await server.newDatabase('vaulted');
    const conn = { url, password: DB_PASSWORD };
    const first = await storedDesk('a', 'Alice');
    let a = first.desk;
    const alice = first.id;
    const { desk: b, id: dora } = await storedDesk('b', 'Dora');
    try {
      const found = await call<{ ticket: string }>(a, 'teamFound', conn);
      await call(a, 'confirmSign', { ticket: found.ticket, operator: alice, passphrase: PASS.Alice }, true);
      const founded = await call<TeamStatus>(a, 'teamStatus', {});
      expect(founded).toMatchObject({ domain: 'vault', team: { database: 'vaulted', how: 'founded', state: 'online' } });

      // Restarted: locked, the desk says nothing of its team; unlocked, its approvals are the team's again.
      await a.close();
      a = open('a');
      expect(await call<TeamStatus>(a, 'teamStatus', {})).toEqual({ domain: null, team: null });
      await call(a, 'vaultUnlock', { passphrase: VAULT });
      await expect.poll(async () => (await call<TeamStatus>(a, 'teamStatus', {})).team).toMatchObject({ how: 'founded', state: 'online' });
      expect((await call<TeamStatus>(a, 'teamStatus', {})).team!.founding).toBe(founded.team!.founding);

      // Desk B has an operator of its own: joining waits for Dora in the confirmation window.
      const joining = await call<{ ticket: string; title: string }>(b, 'teamJoin', { ...conn, founding: founded.team!.founding });
      expect(joining.title).toMatch(/^Join the team on 127\.0\.0\.1:\d+\/vaulted \(founding record [0-9a-f]{64}\)/);
      expect((await call<TeamStatus>(b, 'teamStatus', {})).team).toBeNull();
      const waiting = await call<ConfirmState>(b, 'confirmState', {}, true);
      expect(waiting.tickets.find((t) => t.id === joining.ticket)?.payload).toContain(founded.team!.founding!);
      await call(b, 'confirmSign', { ticket: joining.ticket, operator: dora, passphrase: PASS.Dora }, true);
      expect(await call<TeamStatus>(b, 'teamStatus', {})).toMatchObject({ domain: 'vault', team: { how: 'joined', state: 'online' } });
      // Its Approvals page is the team's now: Alice is the team's operator; Dora stays in desk B's own journal.
      expect((await call<ApprovalsState>(b, 'approvalsState', {})).operators.map((o) => o.name)).toEqual(['Alice']);

      for (const folder of ['a', 'b']) {
        const files = filesUnder(join(sb.dir, folder));
        expect(files.map((f) => f.slice(sb.dir.length))).toContain(`/${folder}/team.json`);
        for (const f of files) expect(readFileSync(f).toString('latin1'), f).not.toContain(DB_PASSWORD);
      }
      expect(seen.join('\n')).not.toContain(DB_PASSWORD);
    } finally {
      await a.close();
      await b.close();
    }
  }, 180_000);
});
