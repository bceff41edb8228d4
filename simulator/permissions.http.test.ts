import { describe, expect, it } from 'vitest';
import type { RouteGroup } from './auth.ts';
import type { RouteDef } from './server.ts';
import { admin, signed, type Key } from './testkit/http.ts';
import { useTestSandbox } from './testkit/sandbox.ts';

// §5.2 and §5.5 over HTTP. The Sandbox runs with one probe route per permission group (GET and POST),
// so that every group can be checked whether or not the Sandbox serves an endpoint of it.

const GROUPS: RouteGroup[] = ['spot', 'futures', 'delivery', 'wallet', 'withdraw', 'unified'];
const PROBES: RouteDef[] = GROUPS.flatMap((g) =>
  (['GET', 'POST'] as const).map((method): RouteDef => ({
    method,
    path: `/probe/${g}`,
    group: g,
    handler: ({ caller }) => ({ group: g, uid: caller.uid }),
  })),
);

const s = useTestSandbox({ noLimits: true }, PROBES);
const MAIN = '10000001';

async function newKey(uid: string, perms: Record<string, unknown>, ipAllow?: string[]): Promise<Key> {
  const r = await admin(s, 'POST', '/keys', { uid, perms, ...(ipAllow ? { ip_allow: ipAllow } : {}) });
  expect(r.status, r.text).toBe(200);
  return r.json as Key;
}

async function probe(k: Key, g: RouteGroup, method: 'GET' | 'POST', localAddress?: string) {
  const r = await signed(s.baseUrl, k, { method, path: `/probe/${g}`, body: method === 'POST' ? '{}' : '', localAddress });
  return r.status === 200 ? 'ok' : `${r.status} ${r.json?.label}`;
}

describe('permission groups (§5.2)', () => {
  it('none refuses with FORBIDDEN, read allows GET only (READ_ONLY otherwise), write allows both', async () => {
    for (const level of ['none', 'read', 'write'] as const) {
      const k = await newKey(MAIN, { spot: level, futures: level, delivery: level, wallet: level, withdraw: level });
      for (const g of GROUPS.filter((x) => x !== 'unified')) {
        const got = [await probe(k, g, 'GET'), await probe(k, g, 'POST')];
        const want = { none: ['401 FORBIDDEN', '401 FORBIDDEN'], read: ['ok', '401 READ_ONLY'], write: ['ok', 'ok'] }[level];
        expect(got, `${g} at ${level}`).toEqual(want);
      }
    }
  });

  it('each group is independent of the others', async () => {
    const k = await newKey(MAIN, { spot: 'write', futures: 'read', wallet: 'none', withdraw: 'write' });
    expect(await probe(k, 'spot', 'POST')).toBe('ok');
    expect(await probe(k, 'futures', 'GET')).toBe('ok');
    expect(await probe(k, 'futures', 'POST')).toBe('401 READ_ONLY');
    expect(await probe(k, 'delivery', 'GET')).toBe('401 FORBIDDEN');
    expect(await probe(k, 'wallet', 'GET')).toBe('401 FORBIDDEN');
    expect(await probe(k, 'withdraw', 'POST')).toBe('ok');
  });

  it('unified is its own switch', async () => {
    const off = await newKey(MAIN, { spot: 'write', wallet: 'write' });
    const on = await newKey(MAIN, { unified: true });
    expect(await probe(off, 'unified', 'GET')).toBe('401 FORBIDDEN');
    expect(await probe(on, 'unified', 'GET')).toBe('ok');
    expect(await probe(on, 'unified', 'POST')).toBe('ok');
    expect(await probe(on, 'spot', 'GET')).toBe('401 FORBIDDEN');
  });

  it('admin key creation refuses what §5 does not allow', async () => {
    const bad = [
      { uid: MAIN, perms: { spot: 'admin' } },
      { uid: MAIN, perms: { margin: 'read' } },
      { uid: MAIN, ip_allow: ['10.0.0.0/8'] },
      { uid: MAIN, ip_allow: Array.from({ length: 21 }, (_, i) => `127.0.0.${i + 2}`) },
      { uid: 'nobody' },
    ];
    for (const b of bad) expect((await admin(s, 'POST', '/keys', b)).status, JSON.stringify(b)).toBeGreaterThanOrEqual(400);
  });
});

describe('IP allow-list (§5.3)', () => {
  it('answers only the listed source addresses', async () => {
    const k = await newKey(MAIN, { wallet: 'read' }, ['127.0.0.2', '127.0.0.3']);
    expect(await probe(k, 'wallet', 'GET', '127.0.0.2')).toBe('ok');
    expect(await probe(k, 'wallet', 'GET', '127.0.0.3')).toBe('ok');
    expect(await probe(k, 'wallet', 'GET', '127.0.0.1')).toBe('401 IP_FORBIDDEN');
    expect(await probe(k, 'wallet', 'GET', '127.0.0.4')).toBe('401 IP_FORBIDDEN');
  });

  it('checks nothing without a list, and takes up to 20 addresses', async () => {
    const open = await newKey(MAIN, { wallet: 'read' });
    expect(await probe(open, 'wallet', 'GET', '127.0.0.9')).toBe('ok');
    const twenty = await newKey(
      MAIN,
      { wallet: 'read' },
      Array.from({ length: 20 }, (_, i) => `127.0.0.${i + 2}`),
    );
    expect(await probe(twenty, 'wallet', 'GET', '127.0.0.21')).toBe('ok');
    expect(await probe(twenty, 'wallet', 'GET', '127.0.0.22')).toBe('401 IP_FORBIDDEN');
  });
});

describe('sub-account keys (§5.5)', () => {
  it('are refused for a business area not enabled for the sub-account, whatever the key may do', async () => {
    const sub = s.credentials.sub_accounts[0]!;
    expect(await probe(sub, 'spot', 'POST')).toBe('ok');
    expect((await admin(s, 'PUT', `/accounts/${sub.uid}/areas`, { areas: ['wallet', 'withdraw'] })).status).toBe(200);
    expect(await probe(sub, 'spot', 'GET')).toBe('401 FORBIDDEN');
    expect(await probe(sub, 'futures', 'GET')).toBe('401 FORBIDDEN');
    expect(await probe(sub, 'wallet', 'POST')).toBe('ok');
    // A main-account key is not narrowed by a sub-account's areas.
    expect(await probe(s.credentials.main, 'spot', 'GET')).toBe('ok');
    expect((await admin(s, 'PUT', `/accounts/${sub.uid}/areas`, { areas: null })).status).toBe(200);
    expect(await probe(sub, 'spot', 'GET')).toBe('ok');
  });

  it('areas are set on sub-accounts only', async () => {
    const r = await admin(s, 'PUT', `/accounts/${MAIN}/areas`, { areas: ['spot'] });
    expect(r.status).toBe(400);
    expect(r.json.label).toBe('INVALID_PARAM_VALUE');
  });
});

describe('locked accounts', () => {
  it('answer ACCOUNT_LOCKED to a correctly signed request until unlocked', async () => {
    const k = await newKey(MAIN, { wallet: 'read' });
    expect((await admin(s, 'PUT', `/accounts/${MAIN}/locked`, { locked: true })).status).toBe(200);
    expect(await probe(k, 'wallet', 'GET')).toBe('401 ACCOUNT_LOCKED');
    expect((await admin(s, 'PUT', `/accounts/${MAIN}/locked`, { locked: false })).status).toBe(200);
    expect(await probe(k, 'wallet', 'GET')).toBe('ok');
  });
});
