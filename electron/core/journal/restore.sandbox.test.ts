import { cpSync, existsSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Withdrawal } from '../../../shared/api/records.ts';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { ProfileSummary, Reply } from '../../../shared/ipc.ts';
import { sendGoverned, signGoverned, TEST_OPERATOR } from '../approvals/testkit/governed.ts';
import { verifiedSavedAddress } from '../testkit/sandboxAdmin.ts';
import { ApiClient } from '../client/client.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox, type SandboxFixture } from '../testkit/sandbox.ts';
import { sandboxCore } from '../testkit/sandboxCore.ts';

// The two ways a data folder can lie about its past, tried on the real core over a real Sandbox on the
// Sandbox profile (no vault: its journals' register is the file beside their key). Emptied journals with
// their heads deleted must not give a fresh desk whose next visitor becomes the first operator; a folder
// restored from before a freeze must not come back unfrozen. The money is counted at the Sandbox by a
// client of the test's own.

const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const WITHDRAWAL = (amount: string) => ({ kind: 'withdrawal' as const, input: { currency: 'USDT', amount, address: TRX, chain: 'TRX' } });

// Each case gets a Sandbox of its own: the desk reconciles against the exchange's records at every start,
// and another case's withdrawals, carrying ids this desk's journal never wrote, would be damage of their own.
let sb: SandboxFixture;
function ownSandbox(name: string): void {
  const f = useSandbox(name, { limits: false });
  beforeAll(() => {
    sb = f;
  });
}

function ok<T>(reply: Reply<T>): T {
  if (!reply.ok) throw new Error(`expected success, got ${reply.error.kind}: ${reply.error.message}`);
  return reply.data;
}

function openCore(dataDir: string, stateDir?: string): Core & ConfirmCore {
  return sandboxCore(sb, { dataDir, ...(stateDir ? { stateDir } : {}) });
}

/** The withdrawals the Sandbox holds, read by the test's own client. */
async function withdrawalsAtExchange(): Promise<number> {
  const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
  const c = new ApiClient({ baseUrl, credentials, limitsOff: true });
  const now = Math.floor(Date.now() / 1000);
  const query: Array<[string, string]> = [
    ['from', String(now - 86_400)],
    ['to', String(now + 60)],
    ['limit', '1000'],
  ];
  return (await c.request({ method: 'GET', path: '/wallet/withdrawals', query }, z.array(Withdrawal))).length;
}

/** Whatever the desk does with a new withdrawal now, none may reach the exchange. */
async function expectNothingLeaves(core: Core & ConfirmCore, before: number, vaultPassphrase?: string): Promise<void> {
  await expect(signGoverned(core, WITHDRAWAL('31'), vaultPassphrase)).rejects.toThrow();
  // The main window's own door: refused for every governed kind, and for a damaged journal.
  const prepared = await core.invoke('writePrepare', { write: WITHDRAWAL('32') });
  if (prepared.ok) expect(await core.invoke('writeApprove', { id: (prepared.data as { id: string }).id })).toMatchObject({ ok: false });
  // Refused at the draft and at the approval: nothing was approved, so nothing is queued to leave later.
  expect(await withdrawalsAtExchange()).toBe(before);
}

describe.each([
  ['the register alone (no state directory)', false],
  ['the register and the anchors', true],
])('a data folder that lies about its past (emptied, found by %s)', (_, anchored) => {
  ownSandbox(`journal-restore-emptied-${String(anchored)}`);
  it('emptied journals with deleted heads are damage: no first operator again, nothing sent', async () => {
    const dataDir = join(sb.dir, `emptied-${String(anchored)}`);
    const stateDir = anchored ? join(sb.dir, `emptied-${String(anchored)}.anchors`) : undefined;
    let core = openCore(dataDir, stateDir);
    expect(await sendGoverned(core, WITHDRAWAL('11'))).toMatchObject({ state: 'accepted' });
    await core.close();
    const before = await withdrawalsAtExchange();

    for (const journal of [join(dataDir, 'journals', 'sandbox.jsonl'), join(dataDir, 'approvals', 'governance-sandbox.jsonl')]) {
      writeFileSync(journal, '');
      unlinkSync(`${journal}.head`);
    }

    core = openCore(dataDir, stateDir);
    const status = ok(await core.invoke('journalStatus', {})) as { state: string; damage: { reason: string } };
    expect(status.state).toBe('damaged');
    expect(status.damage.reason).toMatch(/register says this journal existed, but its sealed head is missing/);
    const confirm = ok(await core.invokeConfirm('confirmState', {})) as ConfirmState;
    expect(confirm.first_operator).toBeNull();
    expect(confirm.unavailable).toMatch(/governance-sandbox.jsonl failed verification/);
    const again = await core.invokeConfirm('confirmCreateFirstOperator', { name: 'Newcomer', passphrase: 'newcomer passphrase' });
    expect(again.ok).toBe(false);
    await expectNothingLeaves(core, before);
    // Archiving the profile's journal is the operator's way on; the approvals journal stays damaged, so still nothing leaves.
    ok(await core.invoke('journalArchive', {}));
    expect(ok(await core.invoke('journalStatus', {}))).toMatchObject({ state: 'ok' });
    await expectNothingLeaves(core, before);
    await core.close();
  }, 60_000);
});

describe('a data folder that lies about its past (vault)', () => {
  ownSandbox('journal-restore-vault');
  it('on a passphrase vault profile, emptied journals with deleted heads are damage: the vault lists them', async () => {
    const home = join(sb.dir, 'vault-desk');
    const stateDir = join(sb.dir, 'vault-desk.anchors');
    const PASSPHRASE = 'vault passphrase for the restore test';
    const creds = sb.creds;
    let core = openDesk({ home, stateDir, sandboxCredentialsPath: sb.credentialsPath, log: () => {}, coolingOffMs: 0 });
    ok(await core.invoke('vaultSetPassphrase', { next: PASSPHRASE }));
    const saved = ok(
      await core.invoke('profileSave', {
        name: 'Main account on the Sandbox',
        environment: 'futures',
        base_url: creds.base_url,
        svc: 'Svc',
        key: creds.main.key,
        secret: creds.main.secret,
        permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
        sub_keys: [],
      }),
    ) as ProfileSummary;
    ok(await core.invoke('profileSelect', { id: saved.id }));
    // A stored profile's new address-book entry waits 24 h: the destination is verified at the exchange instead.
    await verifiedSavedAddress(creds, WITHDRAWAL('15').input);
    expect(await sendGoverned(core, WITHDRAWAL('15'), PASSPHRASE)).toMatchObject({ state: 'accepted' });
    await core.close();
    const before = await withdrawalsAtExchange();

    const profileJournal = readdirSync(join(home, 'journals')).find((f) => f.endsWith('.jsonl') && f !== 'sandbox.jsonl')!;
    for (const journal of [join(home, 'journals', profileJournal), join(home, 'approvals', 'governance.jsonl')]) {
      writeFileSync(journal, '');
      unlinkSync(`${journal}.head`);
    }

    core = openDesk({ home, stateDir, sandboxCredentialsPath: sb.credentialsPath, log: () => {}, coolingOffMs: 0 });
    ok(await core.invoke('vaultUnlock', { passphrase: PASSPHRASE }));
    const status = ok(await core.invoke('journalStatus', {})) as { state: string; damage: { reason: string } };
    expect(status).toMatchObject({ state: 'damaged' });
    expect(status.damage.reason).toMatch(/register says this journal existed/);
    expect((ok(await core.invokeConfirm('confirmState', {})) as ConfirmState).unavailable).toMatch(/governance.jsonl failed verification/);
    const again = await core.invokeConfirm('confirmCreateFirstOperator', {
      name: 'Newcomer',
      passphrase: 'newcomer passphrase',
      vault_passphrase: PASSPHRASE,
    });
    expect(again).toMatchObject({ ok: false, error: { label: 'JOURNAL_DAMAGED' } });
    await expectNothingLeaves(core, before, PASSPHRASE);
    await core.close();
  }, 90_000);
});

describe('a data folder that lies about its past (freeze)', () => {
  ownSandbox('journal-restore-freeze');
  it('a folder restored from before a freeze stays stopped: a withdrawal drafted and signed does not reach the Sandbox', async () => {
    const dataDir = join(sb.dir, 'frozen');
    const stateDir = join(sb.dir, 'frozen.anchors');
    let core = openCore(dataDir, stateDir);
    expect(await sendGoverned(core, WITHDRAWAL('12'))).toMatchObject({ state: 'accepted' });
    await core.close();
    cpSync(dataDir, join(sb.dir, 'frozen-backup'), { recursive: true });

    core = openCore(dataDir, stateDir);
    const operator = (ok(await core.invokeConfirm('confirmState', {})) as ConfirmState).operators[0]!.id;
    const t = ok(await core.invoke('approvalsFreeze', { reason: 'a key may have leaked' })) as { ticket: string };
    ok(await core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    expect(ok(await core.invoke('approvalsState', {}))).toMatchObject({ frozen: { reason: 'a key may have leaked' } });
    await core.close();
    const before = await withdrawalsAtExchange();

    rmSync(dataDir, { recursive: true });
    cpSync(join(sb.dir, 'frozen-backup'), dataDir, { recursive: true });
    core = openCore(dataDir, stateDir);
    const state = await core.invoke('approvalsState', {});
    // Damaged (the governance journal is behind its anchor), never unfrozen: the operator is told why.
    expect(state).toMatchObject({ ok: false, error: { label: 'JOURNAL_DAMAGED' } });
    expect(!state.ok && state.error.message).toMatch(/anchor outside the data folder says entry \d+ was written.*freeze/);
    await expectNothingLeaves(core, before);
    await core.close();
  }, 60_000);
});

describe('a data folder that lies about its past (normal)', () => {
  ownSandbox('journal-restore-normal');
  it('a first start and a normal restart still send, and the anchors live outside the data folder', async () => {
    const dataDir = join(sb.dir, 'normal');
    const stateDir = join(sb.dir, 'normal.anchors');
    const before = await withdrawalsAtExchange();
    let core = openCore(dataDir, stateDir);
    expect(await sendGoverned(core, WITHDRAWAL('13'))).toMatchObject({ state: 'accepted' });
    await core.close();
    core = openCore(dataDir, stateDir);
    expect(ok(await core.invoke('journalStatus', {}))).toMatchObject({ state: 'ok' });
    expect(await sendGoverned(core, WITHDRAWAL('14'))).toMatchObject({ state: 'accepted' });
    await core.close();
    expect(await withdrawalsAtExchange()).toBe(before + 2);
    expect(readdirSync(stateDir).sort()).toEqual(['approvals-governance-sandbox.anchor', 'journals-sandbox.anchor']);
    expect(existsSync(join(dataDir, 'journals', 'desk-journal.registry.json'))).toBe(true);
  }, 60_000);
});
