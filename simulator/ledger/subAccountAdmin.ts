import { stmt, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import { subAccount, type AccountRow } from './transfers.ts';

// Sub-accounts as §4.4's /sub_accounts group shows them (field names of the live SubAccount model, see
// simulator/README.md): create, read, lock and unlock. Keys are in subAccountKeys.ts.

/** SubAccount.state: 1 normal, 2 locked. */
export type SubAccountState = 1 | 2;

export interface SubAccountView {
  remark: string;
  login_name: string;
  user_id: number;
  state: SubAccountState;
  /** 1: a regular sub-account, the only kind the Sandbox models. */
  type: 1;
  create_time: number;
}

function remarkOf(db: DB, uid: string): string {
  const row = stmt(db, 'SELECT remark FROM sub_account_profiles WHERE uid = ?').get(uid) as { remark: string } | undefined;
  return row?.remark ?? '';
}

function viewOf(a: AccountRow, remark: string): SubAccountView {
  return { remark, login_name: a.name, user_id: Number(a.uid), state: a.locked ? 2 : 1, type: 1, create_time: a.created_at };
}

export function subAccountView(db: DB, a: AccountRow): SubAccountView {
  return viewOf(a, remarkOf(db, a.uid));
}

/**
 * Every sub-account of `mainUid`, in uid order, with its remark from the same statement: a remark read
 * per sub-account was a third of the answer's time for 1,000 of them.
 */
export function listSubAccounts(db: DB, mainUid: string): SubAccountView[] {
  const rows = stmt(
    db,
    `SELECT a.*, COALESCE(p.remark, '') AS remark FROM accounts a LEFT JOIN sub_account_profiles p ON p.uid = a.uid
     WHERE a.main_uid = ? ORDER BY CAST(a.uid AS INTEGER)`,
  ).all(mainUid) as Array<AccountRow & { remark: string }>;
  return rows.map((r) => viewOf(r, r.remark));
}

export function getSubAccount(db: DB, mainUid: string, uid: string): SubAccountView {
  return subAccountView(db, subAccount(db, mainUid, uid));
}

/** Live: "only letters, numbers and underscores". The length bound is the Sandbox's (README). */
export const LOGIN_NAME = /^[A-Za-z0-9_]{1,32}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;
const MAX_REMARK = 128;

export interface NewSubAccount {
  login_name: string;
  remark?: string;
  email?: string;
  password?: string;
  type?: number;
}

function bad(message: string): never {
  throw new ApiError('INVALID_PARAM_VALUE', message);
}

/** Checks a POST /sub_accounts body, naming the first problem; nothing is written here. */
export function parseNewSubAccount(b: Record<string, unknown>): NewSubAccount {
  const name = b.login_name;
  if (name === undefined || name === null || name === '') throw new ApiError('MISSING_REQUIRED_PARAM', 'login_name is required');
  if (typeof name !== 'string' || !LOGIN_NAME.test(name)) bad('login_name must be 1 to 32 letters, digits or underscores');
  const out: NewSubAccount = { login_name: name };
  if (b.remark !== undefined && b.remark !== null) {
    if (typeof b.remark !== 'string' || b.remark.length > MAX_REMARK) bad(`remark must be a string of at most ${MAX_REMARK} characters`);
    out.remark = b.remark;
  }
  if (b.email !== undefined && b.email !== null && b.email !== '') {
    if (typeof b.email !== 'string' || !EMAIL.test(b.email)) bad('email is not an email address');
    out.email = b.email;
  }
  if (b.password !== undefined && b.password !== null && b.password !== '') {
    if (typeof b.password !== 'string' || b.password.length < 8 || b.password.length > 64) bad('password must be 8 to 64 characters');
    out.password = b.password;
  }
  if (b.type !== undefined && b.type !== null) {
    if (b.type !== 1) bad('type must be 1 (a regular sub-account); cross-margin sub-accounts (3) are not modelled by the Sandbox');
    out.type = 1;
  }
  return out;
}

/**
 * A new, empty sub-account row of `mainUid` (uid: the main's next after its highest sub-account), inside
 * the caller's transaction. Login names are unique across the Sandbox, as on the live service.
 */
export function insertSubAccount(db: DB, mainUid: string, loginName: string, nowSec: number): string {
  if (stmt(db, 'SELECT 1 FROM accounts WHERE name = ? AND main_uid IS NOT NULL').get(loginName))
    bad(`login_name ${loginName} is taken; choose another`);
  const top = stmt(db, 'SELECT MAX(CAST(uid AS INTEGER)) AS m FROM accounts WHERE main_uid = ?').get(mainUid) as { m: number | null };
  let uid = top.m === null ? Number(mainUid) + 100 : top.m + 1;
  while (stmt(db, 'SELECT 1 FROM accounts WHERE uid = ?').get(String(uid))) uid++;
  stmt(db, 'INSERT INTO accounts (uid, main_uid, name, locked, created_at) VALUES (?, ?, ?, 0, ?)').run(
    String(uid),
    mainUid,
    loginName,
    Math.floor(nowSec),
  );
  return String(uid);
}

/** POST /sub_accounts. The email and password are checked and dropped: the Sandbox has no web login. */
export function createSubAccount(db: DB, mainUid: string, input: NewSubAccount, nowSec: number): SubAccountView {
  return db.transaction(() => {
    const uid = insertSubAccount(db, mainUid, input.login_name, nowSec);
    if (input.remark) stmt(db, 'INSERT INTO sub_account_profiles (uid, remark) VALUES (?, ?)').run(uid, input.remark);
    return getSubAccount(db, mainUid, uid);
  })();
}

/**
 * POST /sub_accounts/{user_id}/lock and /unlock: idempotent. A locked sub-account's keys are refused
 * (auth.ts) and transfers into or out of it too (transfers.ts); the caller invalidates the key cache.
 */
export function setSubAccountLocked(db: DB, mainUid: string, uid: string, locked: boolean): void {
  const a = subAccount(db, mainUid, uid);
  stmt(db, 'UPDATE accounts SET locked = ? WHERE uid = ?').run(locked ? 1 : 0, a.uid);
}
