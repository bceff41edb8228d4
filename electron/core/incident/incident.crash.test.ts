import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from '../client/client.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { keysOf } from '../writes/subAccountLookups.ts';
import type { IncidentFacts } from './steps.ts';

// The desk (testkit/incidentRunner.ts, a child process) is SIGKILLed in the middle of a sub-account's
// incident sequence on a Sandbox whose sweeps are slowed; a restart finishes it. Checked against the
// Sandbox's own records: the sub-account ends locked, with no open order and no spot balance, each
// currency swept to the main account exactly once, both keys gone, and the journal holds each step once.

const tsx = createRequire(import.meta.url).resolve('tsx');
const runnerPath = join(import.meta.dirname, 'testkit', 'incidentRunner.ts');
const children: ChildProcess[] = [];

function run(mode: string, journal: string, seq: string, onLine: (line: string, child: ChildProcess) => void = () => {}) {
  const child = spawn(process.execPath, ['--import', tsx, runnerPath, mode, journal, sb.credentialsPath, seq], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let result: string | null = null;
  createInterface({ input: child.stdout }).on('line', (l) => {
    if (l.startsWith('RESULT ')) result = l.slice(7);
    onLine(l, child);
  });
  return new Promise<{ signal: string | null; result: string | null }>((resolve) =>
    child.once('exit', (_c, signal) => resolve({ signal, result })),
  );
}

const sb = useSandbox('incident-crash');
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('an incident sequence killed mid-way', () => {
  it('SIGKILL during the sweep, then a restart: locked, no open orders, balance at main, each step once', async () => {
    const { uid } = await adminCall<{ uid: string }>(sb.creds, 'POST', `/accounts/${sb.creds.main.uid}/sub_accounts`, { name: 'leaky' });
    const perms = { spot: 'write', futures: 'write', wallet: 'write' };
    const desk = await adminCall<{ key: string; secret: string }>(sb.creds, 'POST', '/keys', { uid, perms, label: 'desk' });
    const leaked = await adminCall<{ key: string; secret: string }>(sb.creds, 'POST', '/keys', { uid, perms, label: 'leaked' });
    await adminCall(sb.creds, 'POST', '/deposits', { uid, currency: 'USDT', amount: '250' });
    await adminCall(sb.creds, 'POST', '/deposits', { uid, currency: 'BTC', amount: '0.5' });
    const main = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true });
    const sub = new ApiClient({ baseUrl: sb.creds.base_url, credentials: desk, limitsOff: true });
    await sub.request(
      {
        method: 'POST',
        path: '/spot/orders',
        body: {
          currency_pair: 'BTC_USDT',
          side: 'buy',
          type: 'limit',
          amount: '0.001',
          price: '50000',
          time_in_force: 'gtc',
          account: 'spot',
        },
      },
      z.looseObject({}),
    );
    await adminCall(sb.creds, 'POST', '/faults', {
      kind: 'latency',
      latency_ms: 400,
      path: '/wallet/sub_account_transfers',
      method: 'POST',
      times: 1000,
    });
    const facts: IncidentFacts = {
      uid,
      // Every key the exchange lists (the seeded one too), as the incident page reads them.
      keys: (await keysOf(main, uid)).map((k) => ({ key: k.key, desk: k.key === desk.key })),
      openPairs: ['BTC_USDT'],
      balances: [
        { currency: 'BTC', available: '0.5', locked: '0' },
        { currency: 'USDT', available: '200', locked: '50' },
      ],
      deskKey: true,
    };
    const seq = join(sb.dir, 'sequence.json');
    writeFileSync(seq, JSON.stringify({ facts, sub: desk }));
    const journal = join(sb.dir, 'journal.jsonl');

    const first = await run('start', journal, seq, (line, child) => {
      // Killed once the extra key is gone and the orders are cancelled, with the sweeps under way.
      if (line.startsWith('PROGRESS ') && Number(line.slice(9)) >= 3 && child.signalCode === null) child.kill('SIGKILL');
    });
    expect(first.signal).toBe('SIGKILL');
    const second = await run('resume', journal, seq);
    expect(second.signal).toBeNull();
    const { held, steps } = JSON.parse(second.result!) as { held: string | null; steps: string[] };
    expect(held).toBeNull();
    expect(facts.keys.length).toBeGreaterThanOrEqual(2);
    expect(facts.keys.some((k) => k.key === leaked.key)).toBe(true);
    expect(steps).toEqual(Array(facts.keys.length + 4).fill('done'));

    const db = new Database(join(sb.dir, 'sandbox', 'sandbox.sqlite'), { readonly: true });
    const locked = (db.prepare('SELECT locked FROM accounts WHERE uid = ?').get(uid) as { locked: number }).locked;
    const open = (db.prepare(`SELECT COUNT(*) AS n FROM spot_orders WHERE uid = ? AND status = 'open'`).get(uid) as { n: number }).n;
    const left = db.prepare(`SELECT currency, available, locked FROM balances WHERE uid = ? AND account_type = 'spot'`).all(uid) as {
      currency: string;
      available: string;
      locked: string;
    }[];
    const swept = db
      .prepare(
        `SELECT currency, COUNT(*) AS n FROM transfers WHERE kind = 'main_sub' AND sub_account = ? AND direction = 'from' GROUP BY currency`,
      )
      .all(uid) as { currency: string; n: number }[];
    const keys = (db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE uid = ?').get(uid) as { n: number }).n;
    db.close();
    expect(locked).toBe(1);
    expect(open).toBe(0);
    expect(left.filter((b) => Number(b.available) !== 0 || Number(b.locked) !== 0)).toEqual([]);
    expect(swept.sort((a, b) => a.currency.localeCompare(b.currency))).toEqual([
      { currency: 'BTC', n: 1 },
      { currency: 'USDT', n: 1 },
    ]);
    expect(keys).toBe(0);
    const intents = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; intent: string })
      .filter((r) => r.type === 'intent');
    expect(new Set(intents.map((r) => r.intent)).size).toBe(intents.length);
    expect(intents).toHaveLength(facts.keys.length + 4);
  }, 120_000);
});
