import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SpotOrder } from '../../shared/api/orders.ts';
import { listOf, SubAccountTransfer, UidTransfer, Withdrawal } from '../../shared/api/records.ts';
import type { SandboxCredentials } from '../../shared/sandbox.ts';
import { launchSandbox, type SandboxProcess } from '../sandbox-launcher.ts';
import { ApiClient } from './client/client.ts';
import { readSandboxCredentials } from './profiles/sandbox.ts';
import { adminCall } from './testkit/sandboxAdmin.ts';

// The desk's two promises, checked by a model: no money leaves twice, and none leaves without the quorum
// of the policy in force. Random interleavings of drafts (single withdrawals, main/sub transfers, UID
// transfers, spot orders, payout batches and rebalances), signatures by three operators, policy changes,
// an operator's removal, freezes, backups and restores of the data folder, SIGKILLs of the desk's process
// and the Sandbox's faults, against a real Sandbox and the real desk in its own process. After each run
// the Sandbox is asked, with this test's own client, what left; the model holds what the operators
// signed. The seed is printed; GUARANTEES_SEED replays it (with GUARANTEES_PATH, the path fast-check
// prints, one failing run alone); GUARANTEES_RUNS and GUARANTEES_COMMANDS make a longer run.

const ROOT = join(import.meta.dirname, '..', '..');
const TSX = createRequire(join(ROOT, 'package.json')).resolve('tsx');
/** The desk's own process (in e2e/: the core never imports a host). */
const DESK = join(ROOT, 'e2e', 'deskProcess.ts');
const ADDRESSES = ['TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'TN3W4H6rK2ce4vX9YnFxx6HkVW5nS5jF8W'];
const OPERATORS = ['Ann', 'Bob', 'Cy'] as const;
const PASSPHRASE = (name: string) => `${name} model passphrase`;
/** The tightened policy: 20 USDT or more needs two operators (the drafter may be one). */
const STRICT = {
  rules: [
    { id: 'cancels-free', match: { kinds: ['spot_cancel', 'spot_cancel_all'] }, action: 'allow' },
    { id: 'unknown-destination', match: { kinds: ['withdrawal'], destinations: ['unknown'] }, action: 'block' },
    {
      id: 'two-from-20',
      match: { kinds: ['withdrawal'], amount_at_least: '20' },
      action: 'require',
      approvals: 2,
      drafter_may_approve: true,
    },
    { id: 'confirm-every-write', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
  ],
};
/** The earlier default, which let a UID transfer go with one signature: the model keeps exercising them. */
const DEFAULT = {
  rules: [
    { id: 'cancels-free', match: { kinds: ['spot_cancel', 'spot_cancel_all'] }, action: 'allow' },
    { id: 'unknown-destination', match: { kinds: ['withdrawal'], destinations: ['unknown'] }, action: 'block' },
    { id: 'confirm-every-write', match: {}, action: 'require', approvals: 1, drafter_may_approve: true },
  ],
};
const RUNS = Number(process.env.GUARANTEES_RUNS ?? 2);
const COMMANDS = Number(process.env.GUARANTEES_COMMANDS ?? 8);
const SEED = Number(process.env.GUARANTEES_SEED ?? Math.floor(Math.random() * 2 ** 31));

type Reply = { ok: boolean; data?: unknown; error?: { message: string } };

/** The desk's process and its two loopback doors. */
class Desk {
  child!: ChildProcess;
  private origin = '';
  private token = '';
  private confirmOrigin = '';
  private confirmToken = '';
  readonly ids = new Map<string, string>();

  constructor(
    readonly home: string,
    private readonly credentials: string,
  ) {}

  async start(): Promise<void> {
    this.child = spawn(process.execPath, ['--import', TSX, DESK, this.home, this.credentials], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: this.child.stdout! });
    this.child.stderr!.resume();
    const line = await new Promise<string>((resolve, reject) => {
      lines.on('line', (l) => l.startsWith('DESK ') && resolve(l.slice(5)));
      this.child.once('exit', (code) => reject(new Error(`the desk exited (${code}) before it served`)));
    });
    const d = JSON.parse(line) as { origin: string; token: string; confirm: string };
    const c = new URL(d.confirm);
    Object.assign(this, { origin: d.origin, token: d.token, confirmOrigin: c.origin, confirmToken: c.hash.replace('#token=', '') });
  }

  async stop(): Promise<void> {
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await gone;
  }

  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGKILL');
    await gone;
  }

  private async post(origin: string, token: string, channel: string, payload: unknown): Promise<Reply> {
    const res = await fetch(`${origin}/rpc/${channel}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(payload),
    });
    return (await res.json()) as Reply;
  }

  call(channel: string, payload: unknown = {}): Promise<Reply> {
    return this.post(this.origin, this.token, channel, payload);
  }

  confirm(channel: string, payload: unknown = {}): Promise<Reply> {
    return this.post(this.confirmOrigin, this.confirmToken, channel, payload);
  }

  /** Signs a ticket of the main window as the named operator; answers what the confirmation window said. */
  async sign(ticket: string, name: string): Promise<Reply> {
    const id = this.ids.get(name);
    if (!id) return { ok: false, error: { message: `${name} is not an operator yet` } };
    return this.confirm('confirmSign', { ticket, operator: id, passphrase: PASSPHRASE(name) });
  }

  async ticketRef(ticket: string): Promise<{ ref: string; payload: string } | undefined> {
    const st = await this.confirm('confirmState');
    return (st.data as { tickets: { id: string; ref: string; payload: string }[] } | undefined)?.tickets.find((t) => t.id === ticket);
  }
}

/** What the operators did, as they know it; never rolled back by a restore of the desk's folder. */
interface Model {
  strict: boolean;
  /** UID transfers carry no id of the desk's: the model tells them apart by amount (each draft its own). */
  uidAmounts: Map<string, string>;
  /** Operators the operators removed: their signatures count for nothing from then on, whatever a restore brings back. */
  removed: Set<string>;
  /** Every desk id (single request or batch row) the operators drafted, with its amount and who signed it. */
  writes: Map<string, { amount: number; group: string }>;
  groups: Map<string, { signers: Set<string>; approved: boolean; rows: string[] }>;
  backups: string[];
  dir: string;
  log: string[];
}

/** Distinct signers the policy in force now needs for every row of a group. */
function needed(m: Model, group: string): number {
  const rows = m.groups.get(group)!.rows.map((r) => m.writes.get(r)!.amount);
  return m.strict && rows.some((a) => a >= 20) ? 2 : 1;
}

function signed(m: Model, group: string, name: string): void {
  if (m.removed.has(name)) return;
  const g = m.groups.get(group)!;
  g.signers.add(name);
  if (!g.approved && g.signers.size >= needed(m, group)) g.approved = true;
}

type Real = { desk: Desk };
type Cmd = fc.AsyncCommand<Model, Real, boolean>;
const cmd = (name: string, run: (m: Model, r: Real) => Promise<void>): Cmd => ({
  check: () => true,
  run: async (m, r) => {
    const t0 = performance.now();
    await run(m, r);
    m.log.push(`${name} (${Math.round(performance.now() - t0)} ms)`);
  },
  toString: () => name,
});

/** Drafts one write in the main window and signs it in the confirmation window as `by`. */
async function draftOne(m: Model, desk: Desk, write: unknown, amount: number, by: (typeof OPERATORS)[number]): Promise<void> {
  const t = await desk.call('approvalsDraft', { write });
  if (!t.ok) return;
  const ticket = (t.data as { ticket: string }).ticket;
  const held = await desk.ticketRef(ticket);
  if (!held) return;
  m.writes.set(held.ref, { amount, group: held.ref });
  m.groups.set(held.ref, { signers: new Set(), approved: false, rows: [held.ref] });
  if ((await desk.sign(ticket, by)).ok) signed(m, held.ref, by);
}

const draft = (amount: number, to: number, by: (typeof OPERATORS)[number]) =>
  cmd(`draft ${amount} USDT to #${to} by ${by}`, async (m, { desk }) => {
    const write = { kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address: ADDRESSES[to], amount: String(amount) } };
    await draftOne(m, desk, write, amount, by);
  });

// A main/sub transfer (client_order_id) and a resting spot order (text): the policies ask one signature
// of either, so the model weighs them at 0.
const transfer = (amount: number, by: (typeof OPERATORS)[number]) =>
  cmd(`transfer ${amount} USDT to a sub-account by ${by}`, async (m, { desk }) => {
    const input = { sub_account: creds.sub_accounts[0]!.uid, currency: 'USDT', amount: String(amount), direction: 'to' };
    await draftOne(m, desk, { kind: 'main_sub_transfer', input }, 0, by);
  });

let uidSeq = 0;
let otherMain = '';
// A UID transfer to another main account: no id of the desk's reaches the exchange, so each has an
// amount of its own, and the exchange's push records are matched to the drafts by it.
const uidTransfer = (by: (typeof OPERATORS)[number]) =>
  cmd(`UID transfer by ${by}`, async (m, { desk }) => {
    const amount = `1.${String(++uidSeq).padStart(3, '0')}`;
    const before = new Set(m.writes.keys());
    await draftOne(m, desk, { kind: 'uid_transfer', input: { receive_uid: otherMain, currency: 'USDT', amount } }, 0, by);
    const ref = [...m.writes.keys()].find((k) => !before.has(k));
    if (ref) m.uidAmounts.set(amount, ref);
  });

const order = (price: number, by: (typeof OPERATORS)[number]) =>
  cmd(`order: buy 0.001 BTC at ${price} by ${by}`, async (m, { desk }) => {
    const input = {
      currency_pair: 'BTC_USDT',
      side: 'buy',
      type: 'limit',
      account: 'spot',
      amount: '0.001',
      price: String(price),
      time_in_force: 'gtc',
    };
    await draftOne(m, desk, { kind: 'spot_order', input }, 0, by);
  });

const batch = (amounts: number[], by: (typeof OPERATORS)[number]) =>
  cmd(`batch of ${amounts.join('+')} USDT by ${by}`, async (m, { desk }) => {
    const csv = ['currency,chain,address,amount', ...amounts.map((a, i) => `USDT,TRX,${ADDRESSES[i % 2]},${a}`)].join('\n');
    const file = { file: 'payouts.csv', content_base64: Buffer.from(`${csv}\n`).toString('base64') };
    if (!(await desk.call('payoutsImport', file)).ok) return;
    const q = await desk.call('payoutsQueue', { ...file, rows: amounts.map((_, i) => i + 1) });
    if (!q.ok) return;
    const { ticket, ref } = q.data as { ticket: string; ref: string };
    const held = await desk.ticketRef(ticket);
    if (!held) return;
    const rows = (JSON.parse(held.payload) as { rows: { ref: string; body: { amount: string } }[] }).rows;
    for (const row of rows) m.writes.set(row.ref, { amount: Number(row.body.amount), group: ref });
    m.groups.set(ref, { signers: new Set(), approved: false, rows: rows.map((r) => r.ref) });
    if ((await desk.sign(ticket, by)).ok) signed(m, ref, by);
  });

// A rebalance: sweep two sub-accounts' spot USDT above a ceiling to the main account, one batch of
// main/sub transfers (each leg with its client_order_id) approved as one ticket.
const rebalance = (ceiling: number, by: (typeof OPERATORS)[number]) =>
  cmd(`rebalance: sweep two sub-accounts above ${ceiling} USDT by ${by}`, async (m, { desk }) => {
    const accounts = creds.sub_accounts.slice(0, 2).map((a) => ({ owner: a.uid, kind: 'spot' }));
    const plan = await desk.call('rebalancePlan', { currency: 'USDT', preset: { kind: 'sweep', ceiling: String(ceiling) }, accounts });
    if (!plan.ok) return;
    const d = await desk.call('rebalanceDraft', { plan: (plan.data as { id: string }).id });
    if (!d.ok) return;
    const { ticket, ref } = d.data as { ticket: string; ref: string };
    const held = await desk.ticketRef(ticket);
    if (!held) return;
    const rows = (JSON.parse(held.payload) as { rows: { ref: string }[] }).rows;
    for (const row of rows) m.writes.set(row.ref, { amount: 0, group: ref });
    m.groups.set(ref, { signers: new Set(), approved: false, rows: rows.map((r) => r.ref) });
    if ((await desk.sign(ticket, by)).ok) signed(m, ref, by);
  });

const approve = (pick: number, by: (typeof OPERATORS)[number]) =>
  cmd(`approve open request #${pick} by ${by}`, async (m, { desk }) => {
    const open = [...m.groups.entries()].filter(([, g]) => !g.approved);
    if (open.length === 0) return;
    const [ref] = open[pick % open.length]!;
    const t = await desk.call('approvalsDecide', { ref, action: 'approve' });
    if (t.ok && (await desk.sign((t.data as { ticket: string }).ticket, by)).ok) signed(m, ref, by);
  });

const policy = (strict: boolean, by: (typeof OPERATORS)[number], second: (typeof OPERATORS)[number]) =>
  cmd(`policy ${strict ? 'strict' : 'default'} by ${by}+${second}`, async (m, { desk }) => {
    const t = await desk.call('approvalsProposePolicy', { policy: strict ? STRICT : DEFAULT });
    if (!t.ok) return;
    const ticket = t.data as { ticket: string };
    const held = await desk.ticketRef(ticket.ticket);
    if (!held || !(await desk.sign(ticket.ticket, by)).ok) return;
    // Loosening needs the strict policy's quorum of two: the second operator approves the change.
    if (m.strict && second !== by) {
      const a = await desk.call('approvalsDecide', { ref: held.ref, action: 'approve' });
      if (!a.ok || !(await desk.sign((a.data as { ticket: string }).ticket, second)).ok) return;
    } else if (m.strict) return;
    m.strict = strict;
  });

const freeze = (by: (typeof OPERATORS)[number], second: (typeof OPERATORS)[number]) =>
  cmd(`freeze by ${by}, unfreeze by ${by}+${second}`, async (_m, { desk }) => {
    const f = await desk.call('approvalsFreeze', { reason: 'model' });
    if (f.ok) await desk.sign((f.data as { ticket: string }).ticket, by);
    const u = await desk.call('approvalsUnfreeze', {});
    if (!u.ok) return;
    const held = await desk.ticketRef((u.data as { ticket: string }).ticket);
    await desk.sign((u.data as { ticket: string }).ticket, by);
    if (held && second !== by) {
      const a = await desk.call('approvalsDecide', { ref: held.ref, action: 'approve' });
      if (a.ok) await desk.sign((a.data as { ticket: string }).ticket, second);
    }
  });

// Cy leaves the desk: a removal needs the largest quorum a policy asks (two under the strict one).
const removeCy = (by: 'Ann' | 'Bob', second: 'Ann' | 'Bob') =>
  cmd(`remove Cy by ${by}${second !== by ? `+${second}` : ''}`, async (m, { desk }) => {
    if (m.removed.has('Cy')) return;
    const t = await desk.call('approvalsRemoveOperator', { id: desk.ids.get('Cy') });
    if (!t.ok) return;
    const ticket = (t.data as { ticket: string }).ticket;
    const held = await desk.ticketRef(ticket);
    if (!held || !(await desk.sign(ticket, by)).ok) return;
    if (m.strict) {
      if (second === by) return;
      const a = await desk.call('approvalsDecide', { ref: held.ref, action: 'approve' });
      if (!a.ok || !(await desk.sign((a.data as { ticket: string }).ticket, second)).ok) return;
    }
    // With no cooling-off on the Sandbox profile, the removal is in force once its quorum signed.
    m.removed.add('Cy');
  });

/**
 * Copies a folder the running desk writes to, as a backup tool would: an atomic write's temporary file
 * listed and then renamed away before it is read fails the copy, which then starts again.
 */
function copyLiveFolder(from: string, to: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      cpSync(from, to, { recursive: true });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 10) throw e;
      rmSync(to, { recursive: true, force: true });
    }
  }
}

const backup = () =>
  cmd('backup the data folder', async (m, { desk }) => {
    const to = join(m.dir, `backup-${m.backups.length}`);
    copyLiveFolder(desk.home, to);
    m.backups.push(to);
  });

const restore = (pick: number) =>
  cmd(`restore backup #${pick}`, async (m, { desk }) => {
    if (m.backups.length === 0) return;
    await desk.kill();
    rmSync(desk.home, { recursive: true, force: true });
    cpSync(m.backups[pick % m.backups.length]!, desk.home, { recursive: true });
    await desk.start();
  });

const kill = () =>
  cmd('SIGKILL the desk and start it again', async (_m, { desk }) => {
    await desk.kill();
    await desk.start();
  });

let creds: SandboxCredentials;
const fault = (kind: 'drop' | 'timeout_after_commit' | 'error') =>
  cmd(`Sandbox fault ${kind} on POST /withdrawals`, async () => {
    await adminCall(creds, 'POST', '/faults', { kind, path: '/withdrawals', method: 'POST', times: 1 });
  });

const who = fc.constantFrom(...OPERATORS);
const drafts = fc.tuple(fc.constantFrom(12, 25), fc.nat(1), who).map(([a, t, b]) => draft(a, t, b));
const approvals = fc.tuple(fc.nat(5), who).map(([p, b]) => approve(p, b));
// Drafts and approvals twice over: most interleavings should have money on its way when the rest strikes.
const commands = [
  drafts,
  drafts,
  fc.tuple(fc.constantFrom(5, 7), who).map(([a, b]) => transfer(a, b)),
  who.map((b) => uidTransfer(b)),
  fc.tuple(fc.constantFrom(20000, 21000), who).map(([p, b]) => order(p, b)),
  fc.tuple(fc.constantFrom(100, 1000), who).map(([c, b]) => rebalance(c, b)),
  fc
    .tuple(fc.constantFrom('Ann' as const, 'Bob' as const), fc.constantFrom('Ann' as const, 'Bob' as const))
    .map(([a, b]) => removeCy(a, b)),
  approvals,
  fc.tuple(fc.array(fc.constantFrom(11, 22), { minLength: 2, maxLength: 3 }), who).map(([a, b]) => batch(a, b)),
  fc.tuple(fc.nat(5), who).map(([p, b]) => approve(p, b)),
  fc.tuple(fc.boolean(), who, who).map(([s, a, b]) => policy(s, a, b)),
  fc.tuple(who, who).map(([a, b]) => freeze(a, b)),
  fc.constant(null).map(() => backup()),
  fc.nat(3).map((p) => restore(p)),
  fc.constant(null).map(() => kill()),
  fc.constantFrom('drop', 'timeout_after_commit', 'error').map((k) => fault(k as 'drop')),
];

let sandbox: SandboxProcess;
let dir: string;
let mine: ApiClient;
/** A data folder set up once (scrypt makes operators slow to create), copied as each run's starting point. */
let template: string;
let operatorIds: Map<string, string>;

const lastDay = (): [string, string][] => {
  const now = Math.floor(Date.now() / 1000);
  return [
    ['from', String(now - 86_400)],
    ['to', String(now + 60)],
    ['limit', '1000'],
  ];
};

/**
 * Every record at the exchange that carries a desk id, read with this test's own client: withdrawals by
 * withdraw_order_id, main/sub transfers by client_order_id, spot orders by text (the order's client id).
 */
async function deskRecordsAtExchange(): Promise<{ key: string; id: string }[]> {
  const withdrawals = await mine.request({ method: 'GET', path: '/wallet/withdrawals', query: lastDay() }, listOf(Withdrawal));
  const transfers = await mine.request(
    { method: 'GET', path: '/wallet/sub_account_transfers', query: lastDay() },
    listOf(SubAccountTransfer),
  );
  const pushes = await mine.request({ method: 'GET', path: '/wallet/push', query: lastDay().slice(0, 2) }, listOf(UidTransfer));
  const orders = await mine.request(
    {
      method: 'GET',
      path: '/spot/orders',
      query: [
        ['currency_pair', 'BTC_USDT'],
        ['status', 'open'],
        ['limit', '100'],
      ],
    },
    z.array(SpotOrder),
  );
  return [
    ...withdrawals.filter((w) => w.withdraw_order_id).map((w) => ({ key: `w${w.id}`, id: w.withdraw_order_id! })),
    ...transfers.filter((t) => t.client_order_id).map((t) => ({ key: `t${t.client_order_id}`, id: t.client_order_id! })),
    ...orders.filter((o) => o.text.startsWith('t-')).map((o) => ({ key: `o${o.id}`, id: o.text })),
    ...pushes.map((p) => ({ key: `p${p.id}`, id: `uid-amount:${p.amount}` })),
  ];
}

/** A desk with three operators in force and both addresses in its address book, as an operator would set it up. */
async function setUp(desk: Desk): Promise<void> {
  const first = await desk.confirm('confirmCreateFirstOperator', { name: OPERATORS[0], passphrase: PASSPHRASE(OPERATORS[0]) });
  if (!first.ok) throw new Error(first.error!.message);
  desk.ids.set(OPERATORS[0], (first.data as { id: string }).id);
  for (const name of OPERATORS.slice(1)) {
    const p = await desk.confirm('confirmProposeOperator', {
      name,
      new_passphrase: PASSPHRASE(name),
      by: desk.ids.get(OPERATORS[0]),
      passphrase: PASSPHRASE(OPERATORS[0]),
    });
    if (!p.ok) throw new Error(p.error!.message);
    desk.ids.set(name, (p.data as { id: string }).id);
  }
  for (const address of ADDRESSES) {
    const t = await desk.call('addressBookAdd', { currency: 'USDT', chain: 'TRX', address });
    if (!t.ok) throw new Error(t.error!.message);
    const s = await desk.sign((t.data as { ticket: string }).ticket, OPERATORS[0]);
    if (!s.ok) throw new Error(s.error!.message);
  }
}

/**
 * Waits (bounded) until the desk has nothing approved still to hand over and nothing in flight, so that
 * what the Sandbox holds is final for this run (rows of a batch are handed over one per 3 s, §8.2).
 */
async function settle(desk: Desk): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const r = await desk.call('intentsList', { unfinished_only: true, limit: 500 });
    const items = (r.data as { items: { state: string }[] } | undefined)?.items ?? [];
    const a = await desk.call('approvalsState');
    const waiting = (a.data as { items: { state: string }[] } | undefined)?.items.some((x) => x.state === 'approved') ?? false;
    if (!r.ok || (!waiting && !items.some((v) => ['approved', 'in_flight'].includes(v.state)))) return;
    await new Promise((res) => setTimeout(res, 100));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'guarantees-model-'));
  sandbox = await launchSandbox({ root: ROOT, dataDir: join(dir, 'sandbox'), extraArgs: ['--no-limits'] });
  creds = readSandboxCredentials(sandbox.credentialsPath);
  mine = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main, limitsOff: true });
  template = join(dir, 'template');
  const desk = new Desk(template, sandbox.credentialsPath);
  await desk.start();
  await setUp(desk);
  await desk.stop();
  operatorIds = desk.ids;
}, 240_000);
afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the desk’s guarantees, under random interleavings', () => {
  it('leaves at the Sandbox only what a quorum approved, each at most once; its journals agree or say they are damaged', async () => {
    console.info(`guarantees model: seed ${SEED} (GUARANTEES_SEED=${SEED} replays it), ${RUNS} runs of up to ${COMMANDS} commands`);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: COMMANDS, size: 'max' }), async (cmds) => {
        const runDir = join(dir, `run-${run++}`);
        // Each run has an exchange of its own: every run's desk is a copy of one set-up folder, so it is
        // the same desk (the same journal key) and would rightly take an earlier run's writes for its own.
        await sandbox.stop();
        sandbox = await launchSandbox({ root: ROOT, dataDir: join(runDir, 'sandbox'), extraArgs: ['--no-limits'] });
        creds = readSandboxCredentials(sandbox.credentialsPath);
        mine = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main, limitsOff: true });
        otherMain = (await adminCall<{ main: { uid: string } }>(creds, 'POST', '/accounts', {})).main.uid;
        uidSeq = 0;
        const desk = new Desk(join(runDir, 'home'), sandbox.credentialsPath);
        const model: Model = {
          strict: false,
          removed: new Set(),
          uidAmounts: new Map(),
          writes: new Map(),
          groups: new Map(),
          backups: [],
          dir: runDir,
          log: [],
        };
        const before = new Set((await deskRecordsAtExchange()).map((r) => r.key));
        cpSync(template, desk.home, { recursive: true });
        // The journals' anchors live beside the data folder (paths.ts): they come with the set-up desk,
        // and a restore of the folder (below) leaves them where they are, as on an operator's machine.
        if (existsSync(`${template}.anchors`)) cpSync(`${template}.anchors`, `${desk.home}.anchors`, { recursive: true });
        for (const [name, id] of operatorIds) desk.ids.set(name, id);
        await desk.start();
        try {
          await fc.asyncModelRun(() => ({ model, real: { desk } }), cmds);
          await settle(desk);
          const journal = (await desk.call('journalStatus')).data as { state: string } | undefined;
          const known = new Set(
            ((await desk.call('intentsList', { limit: 500 })).data as { items: { id: string }[] } | undefined)?.items.map((v) => v.id),
          );
          await desk.kill();
          await adminCall(creds, 'DELETE', '/faults').catch(() => {});
          const left = (await deskRecordsAtExchange()).filter((r) => !before.has(r.key));
          // An order's client id is its text; the model knows it by the ticket's ref, the same id without "t-".
          const ids = left.map((r) =>
            r.id.startsWith('uid-amount:') ? (model.uidAmounts.get(r.id.slice(11)) ?? r.id) : r.id.replace(/^t-/, ''),
          );
          const story = `commands: ${model.log.join('; ')}`;
          console.info(`run ${run}: ${left.length} writes reached the exchange, journal ${journal?.state}; ${story}`);
          // Every record the operators approved exists at most once.
          const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
          expect(twice, `sent twice. ${story}`).toEqual([]);
          // None exists that the quorum of the policy in force did not approve.
          const unapproved = ids.filter((id) => {
            const w = model.writes.get(id);
            return !w || !model.groups.get(w.group)!.approved;
          });
          expect(unapproved, `sent without the quorum. ${story}`).toEqual([]);
          // The journals agree with the exchange, or say they are damaged.
          if (journal?.state !== 'damaged') {
            const forgotten = ids.filter((id) => !known.has(id));
            expect(forgotten, `at the exchange, unknown to a journal that says "${journal?.state}". ${story}`).toEqual([]);
          }
        } finally {
          await desk.kill();
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true, ...(process.env.GUARANTEES_PATH ? { path: process.env.GUARANTEES_PATH } : {}) },
    );
  }, 600_000);
});
