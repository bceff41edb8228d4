import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { listOf, SmallBalanceRecord, SpotAccount } from '../../../shared/api/records.ts';
import { ApiClient } from '../client/client.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { openDustDesk } from './testkit/dustDesk.ts';

// Dust on two sub-accounts converted to GT as one batch under one signature, against a real Sandbox: once
// with the exchange dropping the first answer after it converted, once with the core killed (SIGKILL)
// while both conversions were out and then restarted over its data folder. Each sub-account's own
// history (read with the test's own client and that sub-account's key) holds exactly one conversion.

const PASS = 'dust operator passphrase';
const sb = useSandbox('dust-convert', { limits: false });

function subClient(uid: string): ApiClient {
  const k = sb.creds.sub_accounts.find((s) => s.uid === uid)!;
  return new ApiClient({ baseUrl: sb.creds.base_url, credentials: { key: k.key, secret: k.secret }, limitsOff: true });
}

async function atExchange(uid: string, currency: string): Promise<{ conversions: number; held: string }> {
  const c = subClient(uid);
  const hist = await c.request(
    { method: 'GET', path: '/wallet/small_balance_history', query: [['currency', currency]] },
    listOf(SmallBalanceRecord),
  );
  const acc = await c.request({ method: 'GET', path: '/spot/accounts', query: [['currency', currency]] }, listOf(SpotAccount));
  return { conversions: hist.length, held: acc[0]?.available ?? '0' };
}

async function dust(uids: string[], currency: string): Promise<void> {
  for (const uid of uids) await adminCall(sb.creds, 'POST', '/deposits', { uid, currency, amount: '3' });
}

describe('converting dust on two sub-accounts', () => {
  it('a dropped answer: looked up in the history, converted exactly once, never sent again', async () => {
    const uids = sb.creds.sub_accounts.slice(0, 2).map((s) => s.uid);
    await dust(uids, 'DOGE');
    await adminCall(sb.creds, 'DELETE', '/faults');
    await adminCall(sb.creds, 'POST', '/faults', { path: '/wallet/small_balance', method: 'POST', kind: 'drop', every: 1, times: 1 });
    const dir = join(sb.dir, 'desk-drop');
    const desk = openDustDesk(dir, sb.credentialsPath);
    try {
      const operator = await desk.approvals.createFirstOperator('Dust operator', PASS, undefined);
      const list = await desk.service().list();
      for (const uid of uids) expect(list.accounts.find((a) => a.account === uid)!.items.map((i) => i.currency)).toContain('DOGE');
      const rows = uids.map((account) => ({ account, currency: 'DOGE' }));
      const review = await desk.service().review(rows);
      expect(review.verdict).toMatchObject({ decision: 'require', approvals: 1 });
      const q = await desk.service().convert(rows);
      expect(q.rows).toBe(2);
      // Nothing leaves before the signature.
      expect((await atExchange(uids[0]!, 'DOGE')).conversions).toBe(0);
      await desk.approvals.sign(q.ticket, operator, PASS);
      await expect
        .poll(async () => (await desk.service().progress(q.ref)).rows.map((r) => r.outcome), { timeout: 30_000, interval: 100 })
        .toEqual(['converted', 'converted']);
      const faults = await adminCall<Array<{ fired: number }>>(sb.creds, 'GET', '/faults');
      expect(faults[0]!.fired).toBe(1);
      const p = await desk.service().progress(q.ref);
      expect(p.rows.map((r) => r.account)).toEqual(uids);
      expect(p.rows.every((r) => r.exchange_id !== null)).toBe(true);
      // Neither was sent twice; the dropped one was proven by its history record, not resent.
      const intents = desk.session.active().journal!.intents();
      expect(intents.map((v) => [v.kind, v.signer, v.attempts, v.state])).toEqual(
        expect.arrayContaining(uids.map((uid) => ['small_balance_convert', uid, 1, 'done'])),
      );
      expect(intents).toHaveLength(2);
      // Each account's history, as the page pages it and exports it.
      const page = await desk.service().history({ account: uids[0]!, currency: 'DOGE', page: 1, limit: 100 });
      expect(page.rows.map((r) => [r.currency, r.id])).toEqual([['DOGE', p.rows[0]!.exchange_id]]);
      expect(page.more).toBe(false);
      const csv = await desk.service().historyCsv({ account: uids[0]! });
      expect(csv.csv.split('\n')[0]).toBe('account,id,currency,amount,gt_amount,create_time');
      expect(csv.rows).toBe(1);
    } finally {
      await desk.close();
    }
    for (const uid of uids) expect(await atExchange(uid, 'DOGE')).toEqual({ conversions: 1, held: '0' });
  }, 60_000);

  it('SIGKILL while both conversions are out, then a restart: each proven from its history, converted once', async () => {
    const uids = sb.creds.sub_accounts.slice(0, 2).map((s) => s.uid);
    await dust(uids, 'MOONC');
    for (const uid of uids) expect((await atExchange(uid, 'MOONC')).conversions).toBe(0);
    await adminCall(sb.creds, 'DELETE', '/faults');
    // Each conversion commits, then its answer is held: the core dies with both sent and unanswered.
    await adminCall(sb.creds, 'POST', '/faults', {
      path: '/wallet/small_balance',
      method: 'POST',
      kind: 'timeout_after_commit',
      hang_ms: 60_000,
      every: 1,
    });
    const dir = join(sb.dir, 'desk-crash');
    const runner = join(import.meta.dirname, 'testkit', 'dustRunner.ts');
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const run = (mode: string, onLine: (l: string, kill: () => void) => void) =>
      new Promise<{ code: number | null; signal: string | null; lines: string[] }>((done) => {
        const child = spawn(process.execPath, ['--import', tsx, runner, mode, dir, sb.credentialsPath, 'MOONC', uids.join(',')], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const err: string[] = [];
        const lines: string[] = [];
        createInterface({ input: child.stderr! }).on('line', (l) => err.push(l));
        createInterface({ input: child.stdout! }).on('line', (l) => {
          lines.push(l);
          onLine(l, () => child.kill('SIGKILL'));
        });
        child.once('exit', (code, signal) => {
          if (code !== 0 && signal === null) process.stderr.write(`${err.join('\n')}\n`);
          done({ code, signal, lines });
        });
      });

    let poll: NodeJS.Timeout | undefined;
    const first = await run('start', (line, kill) => {
      if (!line.startsWith('SIGNED ')) return;
      // Kill once both conversions have landed at the exchange, their answers still held.
      poll = setInterval(() => {
        void Promise.all(uids.map((uid) => atExchange(uid, 'MOONC'))).then((at) => {
          if (at.every((a) => a.conversions === 1)) {
            clearInterval(poll);
            kill();
          }
        });
      }, 100);
    });
    clearInterval(poll);
    expect(first.signal).toBe('SIGKILL');
    expect(first.lines.some((l) => l.startsWith('DONE'))).toBe(false);

    await adminCall(sb.creds, 'DELETE', '/faults');
    const second = await run('resume', () => undefined);
    expect(second.code).toBe(0);
    const done = JSON.parse(second.lines.find((l) => l.startsWith('DONE '))!.slice(5)) as [string, string, string | null][];
    expect(done.map(([account, outcome]) => [account, outcome])).toEqual(uids.map((uid) => [uid, 'converted']));
    expect(done.every(([, , id]) => id !== null)).toBe(true);
    for (const uid of uids) expect(await atExchange(uid, 'MOONC')).toEqual({ conversions: 1, held: '0' });
  }, 120_000);
});
