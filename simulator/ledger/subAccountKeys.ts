import { MAX_IP_ALLOW, MAX_KEYS_PER_ACCOUNT } from '../auth.ts';
import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { createKey, type Permissions } from '../world.ts';
import { subAccount } from './transfers.ts';

// A sub-account's API keys as §4.4's /sub_accounts/{user_id}/keys shows them (the live SubAccountKey
// model, simulator/README.md). They are ordinary rows of api_keys, so a created key signs at once
// through auth.ts with the permissions given; api_key_states adds mode, state and times.

/** SubAccountKey.state: 1 normal; 2 locked and 3 frozen are refused by auth.ts. */
export const KEY_STATES = [1, 2, 3] as const;
/** SubAccountKey.mode: 1 classic, 2 portfolio. */
const MODES = [1, 2] as const;
/** The live permission names that are §5.2's groups (SubAccountKeyPerms.name). */
const PERM_NAMES = ['spot', 'futures', 'delivery', 'wallet', 'unified'] as const;
/** Live names the Sandbox has no endpoints for. */
const UNMODELLED = ['margin', 'earn', 'custody', 'options', 'account', 'loan', 'copy'];
const MAX_NAME = 64;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export interface KeyPerm {
  name: string;
  read_only: boolean;
}

export interface SubAccountKeyView {
  user_id: number;
  mode: number;
  name: string;
  perms: KeyPerm[];
  ip_whitelist: string[];
  key: string;
  state: number;
  created_at: number;
  updated_at: number;
}

function bad(message: string): never {
  throw new ApiError('INVALID_PARAM_VALUE', message);
}

/** §5.3: at most 20 IPv4 addresses, no ranges; repeats are kept once. */
export function parseIpList(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) bad(`${field} must be a list of IPv4 addresses`);
  const wrong = v.find((ip) => typeof ip !== 'string' || !IPV4.test(ip));
  if (wrong !== undefined) bad(`${field}: ${JSON.stringify(wrong).slice(0, 60)} is not an IPv4 address (ranges are not allowed)`);
  if (v.length > MAX_IP_ALLOW) bad(`${field} holds at most ${MAX_IP_ALLOW} addresses, got ${v.length}`);
  return [...new Set(v as string[])];
}

/** SubAccountKeyPerms list -> §5.2 levels: a group not named is disabled; read_only false or absent is read-write. */
export function parsePerms(v: unknown): Permissions {
  const out: Permissions = { spot: 'none', futures: 'none', delivery: 'none', wallet: 'none', withdraw: 'none', unified: false };
  if (v === undefined || v === null) return out;
  if (!Array.isArray(v)) bad('perms must be a list of {name, read_only}');
  const seen = new Set<string>();
  for (const p of v as unknown[]) {
    if (typeof p !== 'object' || p === null || Array.isArray(p)) bad('each perms entry must be an object {name, read_only}');
    const { name, read_only: readOnly } = p as Record<string, unknown>;
    if (typeof name !== 'string' || name === '') bad('each perms entry needs a name');
    if (readOnly !== undefined && readOnly !== null && typeof readOnly !== 'boolean') bad(`perms ${name}: read_only must be true or false`);
    if (name === 'withdraw') bad('perms: sub-account keys cannot withdraw (§5.5), so there is no withdraw permission');
    if (UNMODELLED.includes(name)) bad(`perms: ${name} is not modelled by the Sandbox; use ${PERM_NAMES.join(', ')}`);
    if (!(PERM_NAMES as readonly string[]).includes(name)) bad(`perms: unknown permission ${name}; use ${PERM_NAMES.join(', ')}`);
    if (seen.has(name)) bad(`perms: ${name} is named twice`);
    seen.add(name);
    if (name === 'unified') out.unified = true;
    else out[name as Exclude<(typeof PERM_NAMES)[number], 'unified'>] = readOnly === true ? 'read' : 'write';
  }
  return out;
}

export function permsView(p: Permissions): KeyPerm[] {
  const out: KeyPerm[] = [];
  for (const name of PERM_NAMES) {
    if (name === 'unified') {
      if (p.unified) out.push({ name, read_only: false });
    } else if (p[name] !== 'none') out.push({ name, read_only: p[name] === 'read' });
  }
  return out;
}

function parseName(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.trim() === '') bad('name must not be empty');
  if (v.length > MAX_NAME) bad(`name holds at most ${MAX_NAME} characters`);
  return v;
}

function parseChoice<T extends number>(v: unknown, field: string, allowed: readonly T[]): T | undefined {
  if (v === undefined || v === null) return undefined;
  if (!allowed.includes(v as T)) bad(`${field} must be one of ${allowed.join(', ')}`);
  return v as T;
}

interface KeyRow {
  key: string;
  uid: string;
  perms: string;
  ip_allow: string;
  label: string;
  mode: number | null;
  state: number | null;
  created_at: number | null;
  updated_at: number | null;
  account_created: number;
}

const SELECT = `SELECT k.key, k.uid, k.perms, k.ip_allow, k.label, st.mode, st.state, st.created_at, st.updated_at,
  a.created_at AS account_created FROM api_keys k JOIN accounts a ON a.uid = k.uid LEFT JOIN api_key_states st ON st.key = k.key`;

function view(r: KeyRow): SubAccountKeyView {
  return {
    user_id: Number(r.uid),
    mode: r.mode ?? 1,
    name: r.label,
    perms: permsView(JSON.parse(r.perms) as Permissions),
    ip_whitelist: JSON.parse(r.ip_allow) as string[],
    key: r.key,
    state: r.state ?? 1,
    // A seeded key has no row: it was made with its account.
    created_at: r.created_at ?? r.account_created,
    updated_at: r.updated_at ?? r.account_created,
  };
}

/** The key `key` of the caller's sub-account `uid`, or a 404 naming which is missing. */
function keyRow(db: DB, mainUid: string, uid: string, key: string): KeyRow {
  const sub = subAccount(db, mainUid, uid);
  const row = stmt(db, `${SELECT} WHERE k.key = ? AND k.uid = ?`).get(key, sub.uid) as KeyRow | undefined;
  if (!row) throw new ApiError('NOT_FOUND', `sub-account ${sub.uid} has no API key ${key.slice(0, 64)}`);
  return row;
}

export function listSubAccountKeys(db: DB, mainUid: string, uid: string): SubAccountKeyView[] {
  const sub = subAccount(db, mainUid, uid);
  return (stmt(db, `${SELECT} WHERE k.uid = ? ORDER BY k.rowid`).all(sub.uid) as KeyRow[]).map(view);
}

export function getSubAccountKey(db: DB, mainUid: string, uid: string, key: string): SubAccountKeyView {
  return view(keyRow(db, mainUid, uid, key));
}

/** POST /sub_accounts/{user_id}/keys: the one answer that carries the secret, as on the live service. */
export function createSubAccountKey(
  db: DB,
  mainUid: string,
  uid: string,
  b: Record<string, unknown>,
  nowSec: number,
): SubAccountKeyView & { secret: string } {
  return db.transaction(() => {
    const sub = subAccount(db, mainUid, uid);
    const name = parseName(b.name) ?? '';
    const perms = parsePerms(b.perms);
    const ips = parseIpList(b.ip_whitelist, 'ip_whitelist');
    const mode = parseChoice(b.mode, 'mode', MODES) ?? 1;
    const { n } = stmt(db, 'SELECT COUNT(*) AS n FROM api_keys WHERE uid = ?').get(sub.uid) as { n: number };
    if (n >= MAX_KEYS_PER_ACCOUNT) bad(`sub-account ${sub.uid} holds ${n} keys already, the most an account may hold (§5.2)`);
    const pair = createKey(db, sub.uid, perms, name, ips);
    const ts = Math.floor(nowSec);
    stmt(db, 'INSERT INTO api_key_states (key, mode, state, created_at, updated_at) VALUES (?, ?, 1, ?, ?)').run(pair.key, mode, ts, ts);
    return { ...getSubAccountKey(db, mainUid, sub.uid, pair.key), secret: pair.secret };
  })();
}

/**
 * PUT /sub_accounts/{user_id}/keys/{key}. As the live documentation says, perms and ip_whitelist are
 * replaced, and cleared when absent; mode cannot change. `state` (1 normal, 2 locked, 3 frozen) is how
 * the Sandbox disables a key and enables it again; absent, it is kept. Effective at once (the caller
 * drops the key cache): the live service's "up to 5 minutes" (§5.3) is not modelled.
 */
export function updateSubAccountKey(db: DB, mainUid: string, uid: string, key: string, b: Record<string, unknown>, nowSec: number): void {
  db.transaction(() => {
    const row = keyRow(db, mainUid, uid, key);
    const name = parseName(b.name) ?? row.label;
    const perms = parsePerms(b.perms);
    const ips = parseIpList(b.ip_whitelist, 'ip_whitelist');
    const mode = parseChoice(b.mode, 'mode', MODES);
    const state = parseChoice(b.state, 'state', KEY_STATES) ?? row.state ?? 1;
    if (mode !== undefined && mode !== (row.mode ?? 1)) bad(`mode cannot be changed (the key was made in mode ${row.mode ?? 1})`);
    stmt(db, 'UPDATE api_keys SET label = ?, perms = ?, ip_allow = ? WHERE key = ?').run(
      name,
      JSON.stringify(perms),
      JSON.stringify(ips),
      key,
    );
    stmt(
      db,
      `INSERT INTO api_key_states (key, mode, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
    ).run(key, row.mode ?? 1, state, row.created_at ?? row.account_created, Math.floor(nowSec));
  })();
}

/** DELETE /sub_accounts/{user_id}/keys/{key}: the key is refused (INVALID_KEY) from the next request on. */
export function deleteSubAccountKey(db: DB, mainUid: string, uid: string, key: string): void {
  db.transaction(() => {
    keyRow(db, mainUid, uid, key);
    stmt(db, 'DELETE FROM api_key_states WHERE key = ?').run(key);
    stmt(db, 'DELETE FROM api_keys WHERE key = ?').run(key);
  })();
}
