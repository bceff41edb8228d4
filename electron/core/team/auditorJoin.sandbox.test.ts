import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalsState, ProfileSummary, TeamConnectionTest, TeamStatus } from '../../../shared/ipc.ts';
import { createCore, type ConfirmCore, type Core } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { DeskVault } from '../vault/vault.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import { ok } from '../testkit/sandboxCore.ts';

// An auditor profile joins a team from Settings' channels without any operator's consent, because the
// membership it keeps is an auditor's: the desk signs and sends nothing for that domain whichever profile is
// active later, and an edit of team.json's clear fields does not lift that (the flag is sealed).

const ALICE = 'alice passphrase 1';
const missing = postgresMissing();
type Desk = Core & ConfirmCore;

describe.skipIf(missing !== null)(`an auditor joining a team${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-auditor-join', { limits: false });
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  async function openDesk(folder: string, team?: { url: string; domain: 'sandbox' }): Promise<Desk> {
    const dataDir = join(sb.dir, folder);
    mkdirSync(join(dataDir, 'approvals', 'operators'), { recursive: true });
    const vault = DeskVault.open({ path: join(dataDir, 'vault.json'), scrypt: { N: 2 ** 10, r: 8, p: 1 } });
    await vault.setPassphrase(undefined, 'desk vault passphrase');
    return createCore({
      profile: { ...sandboxProfile(sb.credentialsPath), limitsOff: true },
      dataDir,
      vault,
      log: () => {},
      coolingOffMs: 0,
      ...(team ? { team } : {}),
    });
  }

  it('joins read only, stays read only under a keyed profile and an edited team.json, and leaves at once', async () => {
    const url = await server.newDatabase('auditor_join');
    const a = await openDesk('a', { url, domain: 'sandbox' });
    const c = await openDesk('c');
    try {
      await ok(a.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: ALICE }));
      await expect.poll(async () => (await ok<ApprovalsState>(a.invoke('approvalsState', {}))).operators.length).toBe(1);

      const auditor = await ok<ProfileSummary>(c.invoke('profileSaveAuditor', { name: 'Audit', environment: 'sandbox' }));
      await ok(c.invoke('profileSelect', { id: auditor.id }));
      const tested = await ok<TeamConnectionTest>(c.invoke('teamTest', { url }));
      if (!tested.reached || !('founding' in tested.team)) throw new Error('the store holds a team');
      // No ticket: nothing of the desk's money is handed to the team.
      expect(await ok(c.invoke('teamJoin', { url, founding: tested.team.founding }))).toEqual({ joined: true });
      expect((await ok<TeamStatus>(c.invoke('teamStatus', {}))).team).toMatchObject({ how: 'audited', state: 'online' });
      expect((await ok<ApprovalsState>(c.invoke('approvalsState', {}))).operators.map((o) => o.name)).toEqual(['Alice']);

      // The built-in Sandbox profile, which holds a key, is chosen: the domain is still an auditor's.
      const sandbox = (await ok<{ profiles: ProfileSummary[] }>(c.invoke('profilesList', {}))).profiles.find((p) => p.built_in)!;
      await ok(c.invoke('profileSelect', { id: sandbox.id }));
      const keyed = await ok<ApprovalsState>(c.invoke('approvalsState', {}));
      expect(keyed.read_only).toMatch(/^this is an auditor desk/);
      const draft = await c.invoke('approvalsDraft', {
        write: { kind: 'own_transfer', input: { currency: 'USDT', amount: '1', from: 'spot', to: 'margin', currency_pair: 'BTC_USDT' } },
      });
      expect(draft.ok).toBe(false);

      // Whoever can write the data folder turns the clear "audited" into "joined": the sealed flag still holds.
      const file = join(sb.dir, 'c', 'team.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"audited"', '"joined"'));
      expect((await ok<ApprovalsState>(c.invoke('approvalsState', {}))).read_only).toMatch(/^this is an auditor desk/);

      // An auditor's membership is left at once, back to the desk's own journal.
      expect(await ok(c.invoke('teamLeave', {}))).toEqual({ left: true });
      expect((await ok<TeamStatus>(c.invoke('teamStatus', {}))).team).toBeNull();
      const own = await ok<ApprovalsState>(c.invoke('approvalsState', {}));
      expect(own.read_only).toBeUndefined();
      expect(own.operators).toEqual([]);
    } finally {
      await a.close();
      await c.close();
    }
  }, 90_000);
});
