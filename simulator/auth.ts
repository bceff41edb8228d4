import { createHash, hash } from 'node:crypto';
import type { DB } from './db.ts';
import { ApiError } from './errors.ts';
import { PERMISSION_GROUPS, type PermissionGroup, type Permissions } from './world.ts';

// §5.2–§5.9. This is the Sandbox's own verification, deliberately separate from the desk's signer and
// tested against vectors made by the openssl command, so one misreading of the spec cannot hide on both sides.

export const MAX_SKEW_SEC = 60;
/** §5.3 / §8.5. */
export const MAX_IP_ALLOW = 20;
export const MAX_KEYS_PER_ACCOUNT = 20;

/** A route's permission group: the five of §5.2, or the separate `unified` permission. */
export type RouteGroup = PermissionGroup | 'unified';

export interface Caller {
  key: string;
  uid: string;
  mainUid: string;
  isSub: boolean;
  perms: Permissions;
}

/** What a handler learns about the caller: never the secret. */
export interface AuthedCaller extends Caller {
  /** Business areas enabled for the sub-account (§5.5); null for a main account or when all are. */
  areas: ReadonlySet<RouteGroup> | null;
}

/** Everything the check needs about one key, cached: a signed GET must not cost a database query. */
export interface KeyInfo {
  uid: string;
  secret: string;
  /** The secret XOR the HMAC pads (RFC 2104), made once per key: see hmacSha512Hex. */
  ipad: Buffer;
  /** ipad as a string, when all its bytes are ASCII (so its UTF-8 is itself); else null. */
  ipadText: string | null;
  /** The outer pad followed by 64 bytes where each check puts its inner digest. */
  opad: Buffer;
  ipAllow: ReadonlySet<string>;
  locked: boolean;
  /** SubAccountKey.state: 1 normal; 2 locked and 3 frozen are refused. */
  state: number;
  /** Handed to handlers as ctx.caller; built once per key. */
  caller: AuthedCaller;
}

interface KeyRow {
  key: string;
  secret: string;
  uid: string;
  perms: string;
  ip_allow: string;
  main_uid: string | null;
  locked: number;
  areas: string | null;
  state: number | null;
}

// The Sandbox's own table (the ledger's schema has no place for it): which business areas a
// sub-account may use. No row means every area is enabled.
const AREAS_SCHEMA = 'CREATE TABLE IF NOT EXISTS sub_account_areas (uid TEXT PRIMARY KEY, areas TEXT NOT NULL)';

export const AREA_NAMES: readonly RouteGroup[] = [...PERMISSION_GROUPS, 'unified'];

export class KeyStore {
  private readonly cache = new Map<string, KeyInfo>();
  private readonly byKey;

  constructor(private readonly db: DB) {
    db.exec(AREAS_SCHEMA);
    this.byKey = db.prepare(`SELECT k.key, k.secret, k.uid, k.perms, k.ip_allow, a.main_uid, a.locked, s.areas, st.state
      FROM api_keys k JOIN accounts a ON a.uid = k.uid LEFT JOIN sub_account_areas s ON s.uid = k.uid
      LEFT JOIN api_key_states st ON st.key = k.key WHERE k.key = ?`);
  }

  /** Unknown keys are not cached, so random keys cannot grow the cache. */
  get(key: string): KeyInfo | undefined {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const row = this.byKey.get(key) as KeyRow | undefined;
    if (!row) return undefined;
    const isSub = row.main_uid !== null;
    const info: KeyInfo = {
      uid: row.uid,
      secret: row.secret,
      ...hmacPads(row.secret),
      ipAllow: new Set(JSON.parse(row.ip_allow) as string[]),
      locked: row.locked !== 0,
      state: row.state ?? 1,
      caller: Object.freeze({
        key: row.key,
        uid: row.uid,
        mainUid: row.main_uid ?? row.uid,
        isSub,
        perms: Object.freeze(JSON.parse(row.perms) as Permissions),
        areas: isSub && row.areas !== null ? new Set(JSON.parse(row.areas) as RouteGroup[]) : null,
      }),
    };
    this.cache.set(key, info);
    return info;
  }

  /** Called after every admin change and every sub-account management write (keys, locks, areas, world reset). */
  invalidate(): void {
    this.cache.clear();
  }

  setAreas(uid: string, areas: RouteGroup[] | null): void {
    if (areas === null) this.db.prepare('DELETE FROM sub_account_areas WHERE uid = ?').run(uid);
    else {
      this.db
        .prepare('INSERT INTO sub_account_areas (uid, areas) VALUES (?, ?) ON CONFLICT(uid) DO UPDATE SET areas = excluded.areas')
        .run(uid, JSON.stringify(areas));
    }
    this.invalidate();
  }
}

export interface SignedRequest {
  method: string;
  /** Path as sent, including /api/v4, without the query. */
  path: string;
  /** The raw query string as it arrived (percent-encoded), without '?'. */
  rawQuery: string;
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
  nowSec: number;
}

function header(h: SignedRequest['headers'], name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

const EMPTY_BODY_HASH = createHash('sha512').update('').digest('hex');

export function bodyHash(body: Buffer | string): string {
  return body.length === 0 ? EMPTY_BODY_HASH : hash('sha512', body, 'hex');
}

/** §5.7: method, path, query, SHA512 of the body, timestamp, joined by line feeds. */
export function signatureString(method: string, path: string, query: string, body: Buffer | string, ts: string): string {
  return `${method.toUpperCase()}\n${path}\n${query}\n${bodyHash(body)}\n${ts}`;
}

/** SHA-512's block size in bytes. */
const BLOCK = 128;

function hmacPads(secret: string): { ipad: Buffer; ipadText: string | null; opad: Buffer } {
  // RFC 2104: a key longer than a block is hashed first, a shorter one padded with zeros.
  let k = Buffer.from(secret, 'utf8');
  if (k.length > BLOCK) k = createHash('sha512').update(k).digest();
  const ipad = Buffer.alloc(BLOCK, 0x36);
  const opad = Buffer.alloc(BLOCK + 64, 0x5c);
  for (let i = 0; i < k.length; i++) {
    ipad[i]! ^= k[i]!;
    opad[i]! ^= k[i]!;
  }
  // An ASCII secret gives an ASCII inner pad, whose UTF-8 bytes are itself: the inner digest can then
  // take the pad and the payload as one string, with no buffer to fill per request.
  return { ipad, ipadText: ipad.every((b) => b < 0x80) ? ipad.toString('latin1') : null, opad };
}

let scratch = Buffer.allocUnsafe(16 * 1024);

/** SHA-512 of the inner pad followed by the payload's UTF-8 bytes, as a 64-character latin1 string. */
function innerDigest(info: KeyInfo, payload: string): string {
  if (info.ipadText !== null) return hash('sha512', info.ipadText + payload, 'binary');
  const most = BLOCK + payload.length * 3;
  if (most > scratch.length) scratch = Buffer.allocUnsafe(most);
  info.ipad.copy(scratch, 0);
  const n = scratch.write(payload, BLOCK, 'utf8');
  return hash('sha512', scratch.subarray(0, BLOCK + n), 'binary');
}

/**
 * HMAC-SHA512 (RFC 2104) in hex, as two one-shot SHA-512 digests over pads made once per key. Under
 * load createHmac cost several times its isolated ~4 us (a stream object and a native handle per call
 * for the GC to finalize, a new OpenSSL context), and so does a digest answered as a Buffer, or hashing
 * a subarray: each is a backing store to allocate and free. Digests answered as strings cost half as
 * much, so the inner one is written into the outer pad as latin1. Checked against openssl's vectors.
 */
function hmacSha512Hex(info: KeyInfo, payload: string): string {
  info.opad.write(innerDigest(info, payload), BLOCK, 'latin1');
  return hash('sha512', info.opad, 'hex');
}

/** Value of each hex digit by character code (either case); -1 for every other character. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/**
 * Whether the SIGN header (hex of either case) names the expected lower-case hex digest. Every
 * character is compared, whatever differs first, so that the time taken tells nothing of the digest.
 */
function matchesHex(info: KeyInfo, payload: string, sign: string): boolean {
  if (sign.length !== 128) return false;
  const want = hmacSha512Hex(info, payload);
  let diff = 0;
  for (let i = 0; i < 128; i++) {
    const c = sign.charCodeAt(i);
    // A character that is not a hex digit gives -1, and -1 ^ n is never 0 for a digit's value n.
    diff |= (c < 128 ? NIBBLE[c]! : -1) ^ NIBBLE[want.charCodeAt(i)]!;
  }
  return diff === 0;
}

/** The query as §5.7 signs it: percent-decoded, in the order sent. null when it is not valid encoding. */
export function decodeQuery(raw: string): string | null {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, '%20'));
  } catch {
    return null;
  }
}

/** The key named by the KEY header, without checking anything else (rate limits count by its UID). */
export function keyOf(headers: SignedRequest['headers']): string | undefined {
  return header(headers, 'key');
}

const TIMESTAMP = /^\d{1,12}(\.\d{1,9})?$/;

export function authenticate(keys: KeyStore, req: SignedRequest): Caller {
  const key = header(req.headers, 'key');
  const ts = header(req.headers, 'timestamp');
  const sign = header(req.headers, 'sign');
  if (!key || !ts || !sign) {
    const missing = [!key && 'KEY', !ts && 'Timestamp', !sign && 'SIGN'].filter(Boolean);
    throw new ApiError('MISSING_REQUIRED_HEADER', `missing header: ${missing.join(', ')}`);
  }

  const info = keys.get(key);
  if (!info) throw new ApiError('INVALID_KEY', 'unknown API key');

  // §1: timestamps may be integer or decimal seconds; the signature covers the value as sent.
  const tsNum = TIMESTAMP.test(ts) ? Number(ts) : NaN;
  if (!Number.isFinite(tsNum) || Math.abs(req.nowSec - tsNum) > MAX_SKEW_SEC) {
    throw new ApiError(
      'REQUEST_EXPIRED',
      `Timestamp ${ts.slice(0, 40)} is more than ${MAX_SKEW_SEC}s from server time ${Math.floor(req.nowSec)}`,
    );
  }

  if (info.ipAllow.size > 0) {
    const ip = req.ip.startsWith('::ffff:') ? req.ip.slice(7) : req.ip;
    if (!info.ipAllow.has(ip)) throw new ApiError('IP_FORBIDDEN', `source address ${ip} is not on the key's allow-list`);
  }

  // The query is signed decoded, in the order sent (§5.7). A client that signs the query exactly as it
  // was sent (ccxt does) is accepted too: for a query without reserved characters the two are the same
  // string, and either way the HMAC proves the secret.
  const decoded = decodeQuery(req.rawQuery);
  let ok = matchesHex(info, signatureString(req.method, req.path, decoded ?? req.rawQuery, req.body, ts), sign);
  if (!ok && decoded !== null && decoded !== req.rawQuery) {
    ok = matchesHex(info, signatureString(req.method, req.path, req.rawQuery, req.body, ts), sign);
  }
  if (!ok) throw new ApiError('INVALID_SIGNATURE', 'signature mismatch');

  if (info.locked) throw new ApiError('ACCOUNT_LOCKED', 'account is locked');
  // No label of §7 names a disabled key; the locked account's label is the nearest (simulator/README.md).
  if (info.state !== 1) throw new ApiError('ACCOUNT_LOCKED', `API key is ${info.state === 2 ? 'locked' : 'frozen'} (state ${info.state})`);
  return info.caller;
}

/**
 * §5.2: GET is a read, every other method a write; `unified` is a single switch. §5.5: a sub-account
 * key is refused for an area not enabled for its sub-account, whatever the key itself may do.
 */
export function requirePermission(caller: Caller, group: RouteGroup, method: string): void {
  const areas = (caller as Partial<AuthedCaller>).areas;
  if (caller.isSub && areas && !areas.has(group)) {
    throw new ApiError('FORBIDDEN', `the ${group} area is not enabled for sub-account ${caller.uid}`);
  }
  if (group === 'unified') {
    if (!caller.perms.unified) throw new ApiError('FORBIDDEN', 'key has no unified permission');
    return;
  }
  const level = caller.perms[group] ?? 'none';
  if (level === 'none') throw new ApiError('FORBIDDEN', `key has no ${group} permission`);
  if (method !== 'GET' && method !== 'HEAD' && level !== 'write') throw new ApiError('READ_ONLY', `key is read-only for ${group}`);
}
