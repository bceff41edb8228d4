import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { useSandbox } from '../electron/core/testkit/sandbox.ts';
import { createFirstOperator, openWindows, signTicket, waitingTicket } from './confirmPage.ts';
import { launchBrowser, ROOT } from './harness.ts';
import { sandboxAdmin, sandboxGet, sandboxPost } from './sandboxApi.ts';

// Rebalance on the real desk and Sandbox. The desk runs as its own process (e2e/rebalanceDesk.ts) on a
// Sandbox this test keeps running, so that SIGKILL is real: killed before the first transfer leaves, in
// the middle of a batch, and after the last transfer's answer arrived but before the desk saw it, a
// restarted desk finishes the approved batch by itself. The Sandbox's own records are the judge.

const SHOTS = join(ROOT, 'resources', 'screenshots');
const tsx = createRequire(join(ROOT, 'package.json')).resolve('tsx');
const PASS = 'alice passphrase 1';

interface DeskInfo {
  url: string;
  origin: string;
  token: string;
  confirm: string;
  confirm_origin: string;
}
interface Running {
  child: ChildProcess;
  info: Promise<DeskInfo>;
  exited: Promise<NodeJS.Signals | null>;
}
type Reply<T> = { ok: true; data: T } | { ok: false; error: { message: string } };
interface BatchView {
  ref: string;
  state: string;
  paused: string | null;
  rows: { state: string; to: string; from: string; amount: string }[];
}

// One Sandbox for the file, kept running across the desk's SIGKILLs and restarts.
const sb = useSandbox('rebalance-e2e');
const children: ChildProcess[] = [];

function startDesk(home: string, kill?: string): Running {
  const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'e2e', 'rebalanceDesk.ts'), join(sb.dir, home), sb.credentialsPath], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, REBALANCE_KILL: kill ?? '' },
  });
  children.push(child);
  const err: string[] = [];
  createInterface({ input: child.stderr }).on('line', (l) => {
    err.push(l);
    if (process.env.REBALANCE_E2E_LOG) process.stderr.write(`[desk] ${l}\n`);
  });
  const info = new Promise<DeskInfo>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (l) => {
      if (l.startsWith('DESK ')) resolve(JSON.parse(l.slice(5)) as DeskInfo);
    });
    child.once('exit', (code, signal) => reject(new Error(`the desk exited (${signal ?? code}) before it listened:\n${err.join('\n')}`)));
  });
  info.catch(() => {});
  const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_c, signal) => r(signal)));
  return { child, info, exited };
}

async function stopDesk(d: Running): Promise<void> {
  if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGTERM');
  await d.exited;
}

async function rpc<T>(origin: string, token: string, channel: string, payload: unknown): Promise<T> {
  const res = await fetch(`${origin}/rpc/${channel}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const reply = (await res.json()) as Reply<T>;
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.message}`);
  return reply.data;
}
const desk = <T>(i: DeskInfo, channel: string, payload: unknown = {}) => rpc<T>(i.origin, i.token, channel, payload);
const confirmToken = (i: DeskInfo) => new URL(i.confirm).hash.replace('#token=', '');
const confirmRpc = <T>(i: DeskInfo, channel: string, payload: unknown = {}) => rpc<T>(i.confirm_origin, confirmToken(i), channel, payload);

/** Makes Alice the first operator, unless an earlier desk on the same home already did. */
async function firstOperator(i: DeskInfo): Promise<void> {
  const s = await confirmRpc<{ operators: unknown[] }>(i, 'confirmState');
  if (s.operators.length === 0) await confirmRpc(i, 'confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS });
}

/** Signs every ticket waiting in the confirmation window as the one operator. */
async function signAll(i: DeskInfo): Promise<number> {
  const s = await confirmRpc<{ tickets: { id: string }[]; operators: { id: string }[] }>(i, 'confirmState');
  for (const t of s.tickets) await confirmRpc(i, 'confirmSign', { ticket: t.id, operator: s.operators[0]!.id, passphrase: PASS });
  return s.tickets.length;
}

async function subsWith(amounts: string[], prefix: string): Promise<string[]> {
  const creds = readSandboxCredentials(sb.credentialsPath);
  const uids: string[] = [];
  for (const [i, a] of amounts.entries()) {
    const { uid } = await sandboxAdmin<{ uid: string }>(sb.credentialsPath, 'POST', `/accounts/${creds.main.uid}/sub_accounts`, {
      name: `${prefix}_${i}`,
    });
    if (a !== '0') await sandboxAdmin(sb.credentialsPath, 'POST', '/deposits', { uid, currency: 'USDT', amount: a });
    uids.push(uid);
  }
  return uids;
}

const spotUsdt = async (uid: string) =>
  (
    await sandboxGet<{ uid: string; available: Record<string, string> }[]>(
      sb.credentialsPath,
      '/wallet/sub_account_balances',
      `sub_uid=${uid}`,
    )
  )[0]?.available.USDT ?? '0';

/** The Sandbox's transfer records touching these sub-accounts, as (kind, from, to, amount) counted. */
function records(uids: string[]): { key: string; n: number }[] {
  const db = new Database(join(sb.dir, 'sandbox', 'sandbox.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const marks = uids.map(() => '?').join(',');
    return db
      .prepare(
        `SELECT kind || ' ' || from_uid || ' ' || to_uid || ' ' || amount AS key, COUNT(*) AS n FROM transfers
      WHERE from_uid IN (${marks}) OR to_uid IN (${marks}) GROUP BY key`,
      )
      .all(...uids, ...uids) as { key: string; n: number }[];
  } finally {
    db.close();
  }
}

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('Rebalance on the desk and the Sandbox', () => {
  let browser: Browser;
  afterAll(async () => {
    await browser?.close();
  });
  // Whatever a failed test left running is stopped before the next one starts its own desk.
  afterEach(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  it('equalizes 10 sub-accounts from the page: plan, one approval in the confirmation window, progress, every target reached once', async () => {
    const amounts = ['500', '0', '120.5', '0', '0', '37', '0', '0', '250', '0'];
    const uids = await subsWith(amounts, 'rebal');
    // The first four main/sub answers are slow, so that the progress is seen under way.
    await sandboxAdmin(sb.credentialsPath, 'POST', '/faults', {
      kind: 'latency',
      latency_ms: 4000,
      path: '/wallet/sub_account_transfers',
      method: 'POST',
      times: 4,
    });
    const d = startDesk('home-ui');
    const info = await d.info;
    browser = await launchBrowser();
    const { page, confirm } = await openWindows(
      browser,
      { host: info.url, confirm: info.confirm },
      { viewport: { width: 1024, height: 700 }, colorScheme: 'light' },
    );
    await createFirstOperator(confirm, 'Alice', PASS);

    await page.getByRole('link', { name: 'Rebalance' }).click();
    await page.getByRole('button', { name: 'Read balances' }).click();
    await page.getByTestId('scope').waitFor();
    for (const uid of uids) await page.getByLabel(new RegExp(`^Include Sub-account ${uid} \\(rebal_\\d\\) · spot$`)).check();
    await page.getByRole('button', { name: 'Equalize' }).click();
    const plan = page.getByTestId('plan');
    await expect.poll(() => plan.getByRole('heading').textContent()).toBe('Plan: 9 transfers moving 598.25 USDT');
    expect(await page.getByTestId('plan-summary').textContent()).toMatch(
      /^18 requests to send, of which 9 extra hops through a spot account \(at most 9 transfers for this many accounts\)\. Expected time under the rate limits: at least 0 s\./,
    );
    const after = await page.getByTestId('plan-accounts').locator('tbody tr td:nth-child(4)').allTextContents();
    expect(after).toEqual(uids.map(() => '90.75'));
    await plan.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'rebalance-plan.png') });

    // The balances read again under the plan (as a move of money elsewhere makes the desk do): the choices,
    // the plan and its button stay the same nodes, so a click aimed at it lands.
    const submit = page.getByRole('button', { name: 'Submit for approval' });
    await submit.evaluate((el) => el.setAttribute('data-seen', 'before the read'));
    const reads = page.getByRole('button', { name: 'Read balances' });
    await reads.click();
    await expect.poll(() => reads.isDisabled()).toBe(false);
    expect(await submit.getAttribute('data-seen')).toBe('before the read');
    for (const uid of uids)
      expect(await page.getByLabel(new RegExp(`^Include Sub-account ${uid} \\(rebal_\\d\\) · spot$`)).isChecked()).toBe(true);

    await submit.click();
    await page.getByTestId('submitted').waitFor();
    expect(await page.getByTestId('batch-state').first().textContent()).toMatch(/^Waiting for approval/);
    // Nothing moved before the signature.
    expect(records(uids).filter((r) => r.key.startsWith('main_sub'))).toEqual([]);
    expect(await signTicket(await waitingTicket(confirm), 'Alice', PASS)).toMatch(/^Signed: /);

    const state = page.getByTestId('batch-state').first();
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toBe('Running.');
    await expect
      .poll(() => page.getByTestId('batch').first().textContent(), { timeout: 30_000, interval: 100 })
      .toMatch(/[1-8] of 9 transfers ended/);
    await page.getByTestId('batch').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'rebalance-progress.png') });
    await expect.poll(() => state.textContent(), { timeout: 60_000 }).toBe('Finished: 9 done, 0 failed, 0 skipped.');

    expect(await Promise.all(uids.map(spotUsdt))).toEqual(uids.map(() => '90.75'));
    // The report, as the operator saves it.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export report (CSV)' }).first().click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('transfer,from,to,amount,currency,state,reason');
    expect(csv.slice(1).map((l) => l.split(',').slice(3, 6).join(','))).toEqual(
      ['90.75', '90.75', '90.75', '53.75', '83.25', '7.5', '22.25', '68.5', '90.75'].map((a) => `${a},USDT,done`),
    );
    // Each transfer is two main/sub legs (sub to main, main to sub), each once: 18 records, none sub to sub.
    const moves = records(uids);
    expect(moves.filter((r) => !r.key.startsWith('main_sub'))).toEqual([]);
    expect(moves.reduce((n, r) => n + r.n, 0)).toBe(18);
    await page.close();
    await confirm.close();
    await stopDesk(d);
  }, 180_000);

  for (const [point, kill] of [
    ['before the first transfer leaves', 'before:1'],
    ['mid-batch', 'before:4'],
    ["after the last transfer's answer, before the desk saw it", 'after:6'],
  ] as const) {
    it(`SIGKILL ${point}: a restart finishes the approved batch, no transfer twice`, async () => {
      const amounts = ['60', '45', '31', '80', '22.5', '100', '0'];
      const uids = await subsWith(amounts, `kill${kill.replace(':', '')}`);
      const first = startDesk('home-kill', kill);
      const info = await first.info;
      await firstOperator(info);
      // Sweep above 10 to the main account: six main/sub transfers, each with its client_order_id.
      const plan = await desk<{ id: string; transfers: unknown[] }>(info, 'rebalancePlan', {
        currency: 'USDT',
        preset: { kind: 'sweep', ceiling: '10' },
        accounts: uids.map((owner) => ({ owner, kind: 'spot' })),
      });
      expect(plan.transfers).toHaveLength(6);
      const { ref } = await desk<{ ref: string }>(info, 'rebalanceDraft', { plan: plan.id });
      // The desk may die before it answers the signature: the signature is stored before the batch runs.
      await signAll(info).catch(() => 0);
      expect(await first.exited).toBe('SIGKILL');
      const before = records(uids).filter((r) => r.key.startsWith('main_sub'));
      // Where the kill fell, as the Sandbox saw it: nothing yet; some of the six; all six, their answers unread.
      if (kill === 'before:1') expect(before).toEqual([]);
      if (kill === 'before:4') expect(before.length).toBeLessThan(6);
      if (kill === 'after:6') expect(before).toHaveLength(6);

      const second = startDesk('home-kill');
      const again = await second.info;
      let batch: BatchView | undefined;
      await expect
        .poll(
          async () => {
            batch = (await desk<BatchView[]>(again, 'rebalanceBatches')).find((b) => b.ref === ref);
            return batch?.state;
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe('finished');
      expect(batch!.rows.map((r) => r.state)).toEqual(plan.transfers.map(() => 'done'));
      expect(await Promise.all(uids.map(spotUsdt))).toEqual(['10', '10', '10', '10', '10', '10', '0']);
      const moves = records(uids).filter((r) => r.key.startsWith('main_sub'));
      expect(moves).toHaveLength(6);
      expect(moves.filter((r) => r.n > 1)).toEqual([]);
      await stopDesk(second);
    }, 120_000);
  }

  it('pauses, naming the account and the shortfall, when a source no longer holds enough; a restart finds it paused; Cancel skips the rest unsent', async () => {
    const uids = await subsWith(['60', '45'], 'pause');
    const d = startDesk('home-kill');
    const info = await d.info;
    await firstOperator(info);
    const plan = await desk<{ id: string; transfers: { amount: string }[] }>(info, 'rebalancePlan', {
      currency: 'USDT',
      preset: { kind: 'sweep', ceiling: '10' },
      accounts: uids.map((owner) => ({ owner, kind: 'spot' })),
    });
    expect(plan.transfers.map((t) => t.amount)).toEqual(['50', '35']);
    const { ref } = await desk<{ ref: string }>(info, 'rebalanceDraft', { plan: plan.id });
    // Between the plan and its approval, 40 USDT leave the first sub-account.
    await sandboxPost(sb.credentialsPath, '/wallet/sub_account_transfers', {
      sub_account: uids[0],
      sub_account_type: 'spot',
      currency: 'USDT',
      amount: '40',
      direction: 'from',
      client_order_id: `drain-${Date.now()}`,
    });
    expect(await signAll(info)).toBe(1);
    const reason = `${uids[0]}:spot now holds 20 USDT, less than the 50 the rest of the batch takes from it (short by 30)`;
    const batchOf = async (i: DeskInfo) => (await desk<BatchView[]>(i, 'rebalanceBatches')).find((b) => b.ref === ref);
    await expect
      .poll(async () => (await batchOf(info))?.paused ?? '', { timeout: 30_000 })
      .toMatch(new RegExp(`^${reason.replace(/[()]/g, '\\$&')}`));
    expect((await batchOf(info))!.state).toBe('paused');
    await stopDesk(d);

    const again = startDesk('home-kill');
    const info2 = await again.info;
    await expect.poll(async () => (await batchOf(info2))?.state, { timeout: 30_000 }).toBe('paused');
    expect((await batchOf(info2))!.paused).toContain(reason);
    const cancelled = await desk<BatchView>(info2, 'rebalanceCancel', { ref, reason: 'the balances moved' });
    expect(cancelled.state).toBe('finished');
    expect(cancelled.rows.map((r) => r.state)).toEqual(['skipped', 'skipped']);
    // Only the test's own 40 left; nothing of the batch was sent.
    expect(
      records(uids)
        .filter((r) => r.key.startsWith('main_sub'))
        .map((r) => r.key.split(' ').at(-1)),
    ).toEqual(['40']);
    expect(await Promise.all(uids.map(spotUsdt))).toEqual(['20', '45']);
    await stopDesk(again);
  }, 120_000);
});
