import { afterEach, describe, expect, it } from 'vitest';
import type { RouteDef } from './server.ts';
import { admin, send, signed } from './testkit/http.ts';
import { useTestSandbox } from './testkit/sandbox.ts';

// The admin API's own rules, and faults as a client sees them. A probe write route commits a row, so a
// test can tell "the change was committed but the answer never came" from "nothing happened".

const PROBES: RouteDef[] = [
  {
    method: 'POST',
    path: '/probe/commit',
    group: 'wallet',
    handler: ({ db, body }) => {
      db.prepare('INSERT INTO meta (k, v) VALUES (?, ?)').run(`probe:${(body as { id: string }).id}`, '1');
      return { committed: (body as { id: string }).id };
    },
  },
  { method: 'GET', path: '/probe/time', group: 'public', handler: ({ nowSec }) => ({ server_time: nowSec }) },
];

const s = useTestSandbox({ noLimits: true }, PROBES);
let seq = 0;
afterEach(async () => {
  await admin(s, 'DELETE', '/faults');
});

const committed = (id: string) => s.db.prepare('SELECT 1 FROM meta WHERE k = ?').get(`probe:${id}`) !== undefined;
const commit = (id = `c${++seq}`, timeoutMs?: number) =>
  signed(s.baseUrl, s.credentials.main, { method: 'POST', path: '/probe/commit', body: JSON.stringify({ id }), timeoutMs });

describe('admin API access', () => {
  it('needs the bearer token', async () => {
    const adminPath = `${new URL(s.adminUrl).pathname}/clock`;
    const none = await send(s.baseUrl, { method: 'GET', path: adminPath });
    expect([none.status, none.json.label]).toEqual([401, 'INVALID_CREDENTIALS']);
    expect((await admin(s, 'GET', '/clock', undefined, 'wrong-token')).status).toBe(401);
    expect((await admin(s, 'GET', '/clock', undefined, `${s.credentials.admin_token}x`)).status).toBe(401);
    expect((await admin(s, 'GET', '/clock')).status).toBe(200);
  });

  it('answers bad bodies and unknown ids in the §7 shape', async () => {
    const notJson = await send(s.baseUrl, {
      method: 'POST',
      path: `${new URL(s.adminUrl).pathname}/faults`,
      body: '{kind:',
      headers: { Authorization: `Bearer ${s.credentials.admin_token}`, 'Content-Type': 'application/json' },
    });
    expect([notJson.status, notJson.json.label]).toEqual([400, 'INVALID_REQUEST_BODY']);
    expect((await admin(s, 'POST', '/faults', { kind: 'nope', path: '*' })).json.label).toBe('INVALID_PARAM_VALUE');
    expect((await admin(s, 'DELETE', '/faults/999')).status).toBe(404);
    expect((await admin(s, 'POST', '/clock/advance', { seconds: -5 })).status).toBe(400);
  });

  it('advances the clock that the REST API and the time checks read', async () => {
    const before = (await admin(s, 'GET', '/clock')).json;
    const moved = (await admin(s, 'POST', '/clock/advance', { seconds: 120 })).json;
    expect(moved.offset_sec - before.offset_sec).toBe(120);
    const t = (await send(s.baseUrl, { method: 'GET', path: '/api/v4/probe/time' })).json.server_time;
    expect(t - Date.now() / 1000).toBeGreaterThan(before.offset_sec + 119);
    // A request timed by the client's own clock is now 120 s behind the server's.
    const late = await signed(s.baseUrl, s.credentials.main, { method: 'POST', path: '/probe/commit', body: '{"id":"late"}' });
    expect(late.json.label).toBe('REQUEST_EXPIRED');
    const onTime = await signed(s.baseUrl, s.credentials.main, {
      method: 'POST',
      path: '/probe/commit',
      body: '{"id":"ontime"}',
      timestamp: String(Math.floor(t)),
    });
    expect(onTime.status).toBe(200);
    // The rest of this file signs with the client's clock: bring the server back by a skew.
    await admin(s, 'POST', '/faults', { kind: 'skew', path: '*', skew_sec: -moved.offset_sec });
    expect((await commit()).status).toBe(200);
    await admin(s, 'DELETE', '/faults');
    s.clock.advance(-moved.offset_sec); // test-only reset; the admin API moves forward only
  });
});

describe('faults', () => {
  it('error: every Nth matching request gets the chosen status and label, before anything commits', async () => {
    const f = await admin(s, 'POST', '/faults', {
      kind: 'error',
      path: '/probe/*',
      method: 'POST',
      every: 2,
      status: 503,
      label: 'TOO_BUSY',
    });
    expect(f.status).toBe(200);
    const ids = ['e1', 'e2', 'e3', 'e4'];
    const got = [];
    for (const id of ids) got.push(await commit(id));
    expect(got.map((r) => `${r.status} ${r.json?.label ?? ''}`.trim())).toEqual(['200', '503 TOO_BUSY', '200', '503 TOO_BUSY']);
    expect(ids.map(committed)).toEqual([true, false, true, false]);
    expect((await admin(s, 'GET', '/faults')).json[0]).toMatchObject({ id: f.json.id, hits: 4, fired: 2 });
    // A GET does not match a POST-only fault.
    expect((await send(s.baseUrl, { method: 'GET', path: '/api/v4/probe/time' })).status).toBe(200);
  });

  it('error at a seeded rate: the same seed fails the same requests', async () => {
    const pattern = async () => {
      await admin(s, 'DELETE', '/faults');
      await admin(s, 'POST', '/faults', { kind: 'error', path: '/probe/commit', rate: 0.3, seed: 42 });
      const out = [];
      for (let i = 0; i < 20; i++) out.push((await commit()).status);
      return out;
    };
    const a = await pattern();
    expect(await pattern()).toEqual(a);
    expect(a).toContain(500);
    expect(a).toContain(200);
  });

  it('drop: the change commits, then the connection closes without an answer', async () => {
    await admin(s, 'POST', '/faults', { kind: 'drop', path: '/probe/commit', times: 1 });
    await expect(commit('d1')).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(committed('d1')).toBe(true);
    expect((await commit('d2')).status).toBe(200); // times: 1
  });

  it('timeout_after_commit: the change commits and the answer never comes within the client timeout', async () => {
    await admin(s, 'POST', '/faults', { kind: 'timeout_after_commit', path: '/probe/commit', hang_ms: 2000 });
    await expect(commit('t1', 300)).rejects.toThrow(/client timeout/);
    expect(committed('t1')).toBe(true);
    await admin(s, 'DELETE', '/faults');
    expect((await commit('t2')).status).toBe(200);
  });

  it('latency: the request is held, then answered normally', async () => {
    await admin(s, 'POST', '/faults', { kind: 'latency', path: '/probe/commit', latency_ms: 50 });
    const r = await commit('l1');
    expect(r.status).toBe(200);
    expect((await admin(s, 'GET', '/faults')).json[0].fired).toBe(1);
  });

  it('skew: the server clock, X-In-Time and the timestamp check move together', async () => {
    await admin(s, 'POST', '/faults', { kind: 'skew', path: '*', skew_sec: 300 });
    const t = await send(s.baseUrl, { method: 'GET', path: '/api/v4/probe/time' });
    const skewed = t.json.server_time as number;
    expect(skewed - Date.now() / 1000).toBeGreaterThan(295);
    expect(Math.abs(Number(t.headers['x-in-time']) / 1e6 - skewed)).toBeLessThan(1);
    expect((await commit()).json.label).toBe('REQUEST_EXPIRED');
    // A client that resynchronises to the server's clock gets through.
    const ok = await signed(s.baseUrl, s.credentials.main, {
      method: 'POST',
      path: '/probe/commit',
      body: '{"id":"sk"}',
      timestamp: String(Math.floor(skewed)),
    });
    expect(ok.status).toBe(200);
  });

  it('clearing faults restores normal service', async () => {
    await admin(s, 'POST', '/faults', { kind: 'error', path: '*' });
    expect((await commit()).status).toBe(500);
    const list = (await admin(s, 'GET', '/faults')).json;
    expect((await admin(s, 'DELETE', `/faults/${list[0].id}`)).status).toBe(200);
    expect((await commit()).status).toBe(200);
  });
});

describe('saved addresses', () => {
  it('saves one on the account’s §2.9 list; bad bodies change nothing', async () => {
    const uid = s.credentials.main.uid;
    // This file's Sandbox serves only its probe routes: the list is read from the database behind §2.9's read.
    const list = async () =>
      s.db.prepare('SELECT address, verified FROM saved_addresses WHERE uid = ? AND currency = ?').all(uid, 'USDT') as {
        address: string;
        verified: string;
      }[];
    const before = (await list()).length;
    for (const bad of [
      { currency: 'USDT', chain: 'NOPE', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA' },
      { currency: 'USDT', chain: 'TRX', address: 'TXkz 7nF8' },
      { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', verified: 'yes' },
    ]) {
      expect((await admin(s, 'POST', `/accounts/${uid}/saved_addresses`, bad)).json.label).toBe('INVALID_PARAM_VALUE');
    }
    expect((await admin(s, 'POST', '/accounts/999/saved_addresses', { currency: 'USDT', chain: 'TRX', address: 'x' })).status).toBe(404);
    expect((await list()).length).toBe(before);
    const made = await admin(s, 'POST', `/accounts/${uid}/saved_addresses`, {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TN3W4H6rK2ce4vX9YnFxx6HkVW5nS5jF8W',
      verified: '1',
    });
    expect(made.status).toBe(200);
    expect(await list()).toContainEqual(expect.objectContaining({ address: 'TN3W4H6rK2ce4vX9YnFxx6HkVW5nS5jF8W', verified: '1' }));
  });
});
