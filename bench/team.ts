import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ConfirmState } from '../shared/confirm.ts';
import type { ApprovalsState, IntentView } from '../shared/ipc.ts';
import { createCore, type ConfirmCore, type Core } from '../electron/core/core.ts';
import { readSandboxCredentials, sandboxProfile } from '../electron/core/profiles/sandbox.ts';
import { CHANNEL } from '../electron/core/team/pgStore.ts';
import { postgresMissing, startPostgres } from '../electron/core/team/testkit/postgres.ts';
import { launchSandbox } from '../electron/sandbox-launcher.ts';
import { reportTargets } from './targets.ts';
import { size } from './size.ts';

// Team mode (docs/benchmarks.md §team): three desks, three data folders, one team store on a real PostgreSQL and one
// Sandbox. Each request is drafted at one desk and approved by the operators of the other two, each at
// their own desk; the drafting desk sends it under its lease. Figures:
// - requests, sent (intents the Sandbox accepted), twice (writes sent by more than one desk, or more
//   than once);
// - approve_to_send_p99_ms: from the second approval committed to the drafting desk's "sent" record.
//   The requests are main/sub transfers, which §8.2 does not pace, so no wait is to be subtracted;
// - notify_p99_ms: from an approval's row committed (the database's stored_at) to each other desk's
//   approvals page told to refresh;
// - tampered_refused: desks refusing a forged row inserted by SQL at the end (every desk must).

const REQUESTS = size(200, 4);
const PASS = ['alice passphrase 1', 'bob passphrase 22', 'carol passphrase 3'];
const NAMES = ['Alice', 'Bob', 'Carol'];
const ROOT = join(import.meta.dirname, '..');

type Desk = Core & ConfirmCore;

async function ok<T>(p: Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error!.message);
  return r.data as T;
}

function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]!) : 0;
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main(): Promise<void> {
  const missing = postgresMissing();
  if (missing) throw new Error(`bench team needs PostgreSQL: ${missing}`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-team-'));
  const server = await startPostgres();
  const sandbox = await launchSandbox({ root: ROOT, dataDir: join(dir, 'sandbox'), extraArgs: ['--no-limits'], timeoutMs: 120_000 });
  const desks: Desk[] = [];
  try {
    const creds = readSandboxCredentials(sandbox.credentialsPath);
    const sub = creds.sub_accounts[0]!.uid;
    const url = server.url;
    for (const name of ['a', 'b', 'c']) {
      const dataDir = join(dir, name);
      mkdirSync(join(dataDir, 'approvals', 'operators'), { recursive: true });
      desks.push(
        createCore({
          profile: { ...sandboxProfile(sandbox.credentialsPath), limitsOff: true },
          dataDir,
          log: () => {},
          coolingOffMs: 0,
          team: { url, domain: 'sandbox' },
        }),
      );
    }
    const [a] = desks as [Desk, Desk, Desk];
    const state = (d: Desk) => ok<ApprovalsState>(d.invoke('approvalsState', {}));

    // Alice founds the team at desk A; Bob and Carol join; the policy asks two approvals besides the drafter's.
    const ids: string[] = [
      (await ok<{ id: string }>(a.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS[0] }))).id,
    ];
    // Once Bob is in, a change needs two: Bob approves it from his own desk.
    const bobApproves = async (what: string): Promise<void> => {
      const waiting = (await state(a)).items.find((x) => x.what === what && x.state === 'waiting');
      if (!waiting) return;
      await until(`desk B to see the ${what}`, async () =>
        (await state(desks[1]!)).items.some((x) => x.ref === waiting.ref) ? true : undefined,
      );
      const t = await ok<{ ticket: string }>(desks[1]!.invoke('approvalsDecide', { ref: waiting.ref, action: 'approve' }));
      await ok(desks[1]!.invokeConfirm('confirmSign', { ticket: t.ticket, operator: ids[1], passphrase: PASS[1] }));
    };
    for (const i of [1, 2]) {
      // Each makes their key at their own desk; desk A proposes them by its enrolment code.
      const made = await ok<{ enrolment: string; fingerprint: string }>(
        desks[i]!.invokeConfirm('confirmMakeOperatorKey', { name: NAMES[i], passphrase: PASS[i] }),
      );
      const id = (
        await ok<{ id: string }>(
          a.invokeConfirm('confirmProposeOperator', {
            name: NAMES[i],
            enrolment: made.enrolment,
            enrolment_fingerprint: made.fingerprint,
            by: ids[0],
            passphrase: PASS[0],
          }),
        )
      ).id;
      ids.push(id);
      await bobApproves('add_operator');
    }
    const policy = { rules: [{ id: 'two', match: {}, action: 'require' as const, approvals: 2, drafter_may_approve: false }] };
    const change = await ok<{ ticket: string }>(a.invoke('approvalsProposePolicy', { policy }));
    await ok(a.invokeConfirm('confirmSign', { ticket: change.ticket, operator: ids[0], passphrase: PASS[0] }));
    await bobApproves('policy');
    for (const d of desks)
      await until('three operators in force', async () =>
        (await state(d)).operators.filter((o) => o.state === 'in_force').length === 3 ? true : undefined,
      );

    // What each desk hears: its approvals page told to refresh, and its intents.
    const heard: number[][] = desks.map(() => []);
    const sentAt = new Map<string, number>();
    const sentBy = new Map<string, Set<number>>();
    desks.forEach((d, i) =>
      d.subscribe((event, payload) => {
        if (event === 'approvals') heard[i]!.push(Date.now());
        if (event === 'intent') {
          const v = payload as IntentView;
          if (v.state === 'in_flight') {
            sentAt.set(v.id, Math.min(sentAt.get(v.id) ?? Infinity, Date.now()));
            sentBy.set(v.id, (sentBy.get(v.id) ?? new Set()).add(i));
          }
        }
      }),
    );

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const committedAt = async (ref: string): Promise<number> =>
      (
        await db.query<{ at: Date }>(
          `SELECT stored_at AS at FROM governance_records WHERE strpos(entry, $1) > 0 AND strpos(entry, '"type":"signoff"') > 0 ORDER BY seq DESC LIMIT 1`,
          [ref],
        )
      ).rows[0]!.at.getTime();

    const approveToSend: number[] = [];
    const notify: number[] = [];
    const refs: string[] = [];
    for (let n = 0; n < REQUESTS; n++) {
      const drafter = n % 3;
      const d = desks[drafter]!;
      const draft = await ok<{ ticket: string }>(
        d.invoke('approvalsDraft', {
          write: { kind: 'main_sub_transfer', input: { sub_account: sub, currency: 'USDT', amount: '0.01', direction: 'to' } },
        }),
      );
      const ref = (await ok<ConfirmState>(d.invokeConfirm('confirmState', {}))).tickets.find((x) => x.id === draft.ticket)!.ref;
      refs.push(ref);
      await ok(d.invokeConfirm('confirmSign', { ticket: draft.ticket, operator: ids[drafter], passphrase: PASS[drafter] }));
      for (const k of [1, 2]) {
        const j = (drafter + k) % 3;
        const approver = desks[j]!;
        // Asked of the one request (not the whole page): the bench's own polling must not slow the desks it measures.
        await until(`request ${n} at desk ${j}`, async () => {
          const st = await ok<{ state: string }>(approver.invoke('requestStatus', { ref }));
          return st.state === 'waiting' ? true : undefined;
        });
        const t = await ok<{ ticket: string }>(approver.invoke('approvalsDecide', { ref, action: 'approve' }));
        const before = heard.map((h) => h.length);
        await ok(approver.invokeConfirm('confirmSign', { ticket: t.ticket, operator: ids[j], passphrase: PASS[j] }));
        const at = await committedAt(ref);
        for (const other of [0, 1, 2].filter((x) => x !== j)) {
          const first = await until(`desk ${other} to hear approval ${n}`, async () =>
            heard[other]!.slice(before[other]!).find((x) => x >= at),
          );
          notify.push(first - at);
        }
        if (k === 2) {
          const sent = await until(`request ${n} sent`, async () => sentAt.get(ref));
          approveToSend.push(sent - at);
        }
      }
    }

    // Every request accepted by the Sandbox, at the drafting desk only.
    const accepted = new Set<string>();
    for (const [i, d] of desks.entries())
      for (const ref of refs.filter((_r, n) => n % 3 === i)) {
        const v = await until(`request ${ref} settled`, async () => {
          const found = (await ok<{ items: IntentView[] }>(d.invoke('intentsList', {}))).items.find((x) => x.id === ref);
          return found && !['approved', 'in_flight', 'unconfirmed'].includes(found.state) ? found : undefined;
        });
        if (v.state === 'accepted' || v.state === 'done') accepted.add(ref);
      }
    const twice = [...sentBy.values()].filter((s) => s.size > 1).length;

    // A forged approval row by SQL: every desk refuses the store.
    const last = (
      await db.query<{ seq: number; entry: string; sig: string }>(
        'SELECT seq, entry, sig FROM governance_records ORDER BY seq DESC LIMIT 1',
      )
    ).rows[0]!;
    await db.query('INSERT INTO governance_records (seq, entry, sig) VALUES ($1, $2, $3)', [
      last.seq + 1,
      last.entry.replace(`"seq":${last.seq}`, `"seq":${last.seq + 1}`),
      last.sig,
    ]);
    await db.query('SELECT pg_notify($1, $2)', [CHANNEL, String(last.seq + 1)]);
    let refused = 0;
    for (const d of desks) {
      const r = await until('the forged row refused', async () => {
        const s = await d.invoke('approvalsState', {});
        return s.ok ? undefined : s.error;
      }).catch(() => null);
      if (r?.label === 'TEAM_STORE_TAMPERED') refused++;
    }
    await db.end();

    const figures = {
      requests: REQUESTS,
      sent: accepted.size,
      twice,
      tampered_refused: refused,
      approve_to_send_p99_ms: p99(approveToSend),
      notify_p99_ms: p99(notify),
    };
    const targets = {
      sent: `>= ${REQUESTS}`,
      twice: '<= 0',
      tampered_refused: '>= 3',
      approve_to_send_p99_ms: '<= 500',
      notify_p99_ms: '<= 1000',
    };
    reportTargets(figures, targets);
    console.log(JSON.stringify({ ...figures, targets }));
  } finally {
    for (const d of desks) await d.close().catch(() => {});
    await sandbox.stop();
    await server.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
