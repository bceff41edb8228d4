import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { DB } from './db.ts';
import { ApiError } from './errors.ts';
import type { PermissionGroup, Permissions } from './world.ts';

// §5.6–§5.8. This is the Sandbox's own verification, deliberately separate from the desk's signer and
// tested against vectors made by the openssl command, so one misreading of the spec cannot hide on both sides.

export const MAX_SKEW_SEC = 60;

export interface Caller {
  key: string;
  uid: string;
  mainUid: string;
  isSub: boolean;
  perms: Permissions;
}

interface KeyRow { key: string; secret: string; uid: string; perms: string; ip_allow: string; main_uid: string | null; locked: number }

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
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function signatureString(method: string, path: string, query: string, body: Buffer | string, ts: string): string {
  const bodyHash = createHash('sha512').update(body).digest('hex');
  return [method.toUpperCase(), path, query, bodyHash, ts].join('\n');
}

function hmacHex(secret: string, payload: string): string {
  return createHmac('sha512', secret).update(payload).digest('hex');
}

function safeEqualHex(a: string, b: string): boolean {
  const ab = Buffer.from(a.toLowerCase());
  const bb = Buffer.from(b.toLowerCase());
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function decodeQuery(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, '%20'));
  } catch {
    return null;
  }
}

export function authenticate(db: DB, req: SignedRequest): Caller {
  const key = header(req.headers, 'KEY');
  const ts = header(req.headers, 'Timestamp');
  const sign = header(req.headers, 'SIGN');
  const missing = [!key && 'KEY', !ts && 'Timestamp', !sign && 'SIGN'].filter(Boolean);
  if (missing.length) throw new ApiError('MISSING_REQUIRED_HEADER', `missing header: ${missing.join(', ')}`);

  const row = db.prepare(`SELECT k.key, k.secret, k.uid, k.perms, k.ip_allow, a.main_uid, a.locked
    FROM api_keys k JOIN accounts a ON a.uid = k.uid WHERE k.key = ?`).get(key) as KeyRow | undefined;
  if (!row) throw new ApiError('INVALID_KEY', 'unknown API key');

  // §1: timestamps may be integer or decimal seconds.
  const tsNum = /^\d+(\.\d+)?$/.test(ts!) ? Number(ts) : NaN;
  if (!Number.isFinite(tsNum) || Math.abs(req.nowSec - tsNum) > MAX_SKEW_SEC) {
    throw new ApiError('REQUEST_EXPIRED', `Timestamp ${ts} is more than ${MAX_SKEW_SEC}s from server time ${Math.floor(req.nowSec)}`);
  }

  const ipAllow = JSON.parse(row.ip_allow) as string[];
  if (ipAllow.length > 0 && !ipAllow.includes(req.ip.replace(/^::ffff:/, ''))) {
    throw new ApiError('IP_FORBIDDEN', `source address ${req.ip} is not on the key's allow-list`);
  }

  // The query is signed decoded, in the order sent (§5.7). A client that signs the query exactly as it
  // was sent is accepted too: for every query without reserved characters the two are the same string,
  // and the HMAC still proves the secret.
  const decoded = decodeQuery(req.rawQuery);
  const candidates = decoded === null || decoded === req.rawQuery ? [req.rawQuery] : [decoded, req.rawQuery];
  const ok = candidates.some((q) => safeEqualHex(hmacHex(row.secret, signatureString(req.method, req.path, q, req.body, ts!)), sign!));
  if (!ok) throw new ApiError('INVALID_SIGNATURE', 'signature mismatch');

  if (row.locked) throw new ApiError('ACCOUNT_LOCKED', 'account is locked');

  return {
    key: row.key,
    uid: row.uid,
    mainUid: row.main_uid ?? row.uid,
    isSub: row.main_uid !== null,
    perms: JSON.parse(row.perms) as Permissions,
  };
}

/** §5.2: GET is a read, every other method a write. */
export function requirePermission(caller: Caller, group: PermissionGroup, method: string): void {
  const level = caller.perms[group];
  if (level === 'none') throw new ApiError('FORBIDDEN', `key has no ${group} permission`);
  if (method.toUpperCase() !== 'GET' && level !== 'write') throw new ApiError('READ_ONLY', `key is read-only for ${group}`);
}
