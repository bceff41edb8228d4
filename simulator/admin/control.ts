import { AREA_NAMES, KeyStore, MAX_KEYS_PER_ACCOUNT, type RouteGroup } from '../auth.ts';
import { setMeta } from '../db.ts';
import { ApiError } from '../errors.ts';
import { Faults, parseFaultSpec } from '../faults.ts';
import { parseIpList } from '../ledger/subAccountKeys.ts';
import type { RateLimiter } from '../limits.ts';
import { createKey, PERMISSION_GROUPS, type PermissionLevel, type Permissions } from '../world.ts';
import type { AdminCtx, AdminRouteDef } from './types.ts';

// The platform's admin routes: keys, account locks and sub-account areas, the clock, faults and rate
// limits. (Money, accounts and records are the ledger's admin routes.)

export interface ControlDeps {
  keys: KeyStore;
  faults: Faults;
  limiter: RateLimiter;
}

const LEVELS: readonly PermissionLevel[] = ['none', 'read', 'write'];

function bad(message: string): never {
  throw new ApiError('INVALID_PARAM_VALUE', message);
}

function object(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) bad('body must be a JSON object');
  return body as Record<string, unknown>;
}

function account(ctx: AdminCtx, uid: unknown): string {
  if (typeof uid !== 'string' || !ctx.db.prepare('SELECT 1 FROM accounts WHERE uid = ?').get(uid)) {
    throw new ApiError('USER_NOT_FOUND', `no account ${String(uid).slice(0, 40)}`);
  }
  return uid;
}

/** Groups not named are disabled; `unified` is off unless given. */
export function parsePermissions(v: unknown): Permissions {
  const p = v === undefined ? {} : object(v);
  const out = { unified: false } as Permissions;
  for (const g of PERMISSION_GROUPS) {
    const level = p[g] ?? 'none';
    if (!LEVELS.includes(level as PermissionLevel)) bad(`perms.${g} must be none, read or write`);
    out[g] = level as PermissionLevel;
  }
  if (p.unified !== undefined) {
    if (typeof p.unified !== 'boolean') bad('perms.unified must be true or false');
    out.unified = p.unified;
  }
  for (const k of Object.keys(p))
    if (k !== 'unified' && !(PERMISSION_GROUPS as readonly string[]).includes(k)) bad(`unknown permission group ${k}`);
  return out;
}

function clockView(ctx: AdminCtx) {
  return { now: ctx.clock.now(), offset_sec: ctx.clock.offset };
}

export function controlAdminRoutes(d: ControlDeps): AdminRouteDef[] {
  return [
    {
      method: 'POST',
      path: '/keys',
      handler: (ctx) => {
        const b = object(ctx.body);
        const uid = account(ctx, b.uid);
        const perms = parsePermissions(b.perms);
        const ipAllow = parseIpList(b.ip_allow, 'ip_allow');
        if (b.label !== undefined && (typeof b.label !== 'string' || b.label.length > 64))
          bad('label must be a string of at most 64 characters');
        const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE uid = ?').get(uid) as { n: number };
        if (n >= MAX_KEYS_PER_ACCOUNT) bad(`an account holds at most ${MAX_KEYS_PER_ACCOUNT} keys (§5.2)`);
        const pair = createKey(ctx.db, uid, perms, b.label ?? 'admin', ipAllow);
        return { ...pair, perms, ip_allow: ipAllow };
      },
    },
    {
      method: 'PUT',
      path: '/accounts/:uid/areas',
      handler: (ctx) => {
        const uid = account(ctx, ctx.params.uid);
        const row = ctx.db.prepare('SELECT main_uid FROM accounts WHERE uid = ?').get(uid) as { main_uid: string | null };
        if (row.main_uid === null) bad('business areas are set on sub-accounts only (§5.5)');
        const areas = object(ctx.body).areas;
        if (areas !== null && (!Array.isArray(areas) || areas.some((a) => !AREA_NAMES.includes(a as RouteGroup)))) {
          bad(`areas must be null (all enabled) or a list from ${AREA_NAMES.join(', ')}`);
        }
        d.keys.setAreas(uid, areas as RouteGroup[] | null);
        return { uid, areas };
      },
    },
    {
      method: 'PUT',
      path: '/accounts/:uid/locked',
      handler: (ctx) => {
        const uid = account(ctx, ctx.params.uid);
        const locked = object(ctx.body).locked;
        if (typeof locked !== 'boolean') bad('locked must be true or false');
        ctx.db.prepare('UPDATE accounts SET locked = ? WHERE uid = ?').run(locked ? 1 : 0, uid);
        return { uid, locked };
      },
    },
    { method: 'GET', path: '/clock', handler: clockView },
    {
      method: 'POST',
      path: '/clock/advance',
      handler: (ctx) => {
        const s = object(ctx.body).seconds;
        // Forward only: records and rate windows assume time does not run back. A backward clock is a skew fault.
        if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > 10 * 365 * 86400)
          bad('seconds must be a number from 0 to 10 years');
        ctx.clock.advance(s);
        setMeta(ctx.db, 'clock_offset', String(ctx.clock.offset));
        return clockView(ctx);
      },
    },
    { method: 'GET', path: '/faults', handler: () => d.faults.list() },
    { method: 'POST', path: '/faults', handler: (ctx) => d.faults.add(parseFaultSpec(ctx.body)) },
    {
      method: 'DELETE',
      path: '/faults',
      handler: () => {
        d.faults.clear();
        return { cleared: true };
      },
    },
    {
      method: 'DELETE',
      path: '/faults/:id',
      handler: (ctx) => {
        if (!d.faults.remove(Number(ctx.params.id))) throw new ApiError('NOT_FOUND', `no fault ${ctx.params.id}`);
        return { removed: Number(ctx.params.id) };
      },
    },
    { method: 'GET', path: '/limits', handler: () => ({ enabled: d.limiter.enabled, buckets: d.limiter.bucketCount }) },
    {
      method: 'POST',
      path: '/limits/reset',
      handler: () => {
        d.limiter.reset();
        return { reset: true };
      },
    },
  ];
}
