import { z } from 'zod';

// Sub-account management (§4.4 /sub_accounts/*; shapes from the live service's documentation and the
// official SDK's SubAccount and SubAccountKey models). Records keep the wire names. Every management act
// is a governed, journaled write of the desk: containing a sub-account (lock, disable a key) is open to
// any operator who may freeze the desk, with one confirmation; giving access back or making new access
// (unlock, a key, a sub-account) needs the change quorum, like an operator or policy change.

const Uid = z.string().regex(/^\d{1,18}$/, 'must be a user id (digits)');

/** SubAccount.state: 1 normal, 2 locked (the live documentation). */
export const SUB_ACCOUNT_LOCKED_STATE = 2;

export const SubAccount = z.looseObject({
  user_id: z.union([z.number(), z.string()]).transform(String),
  login_name: z.string(),
  remark: z.string().nullish(),
  state: z.number().int().optional(),
  type: z.number().int().optional(),
  create_time: z.number().optional(),
});
export type SubAccount = z.output<typeof SubAccount>;

/** SubAccountKey.perms[]: a permission group of §5.2 and whether the key may only read it. */
export const KeyPerm = z.strictObject({ name: z.string().min(1).max(32), read_only: z.boolean().optional() });

export const SubAccountKey = z.looseObject({
  user_id: z.union([z.number(), z.string()]).transform(String).optional(),
  name: z.string().nullish(),
  perms: z.array(z.looseObject({ name: z.string(), read_only: z.boolean().optional() })).nullish(),
  ip_whitelist: z.array(z.string()).nullish(),
  key: z.string(),
  state: z.number().int().optional(),
  created_at: z.union([z.number(), z.string()]).optional(),
  updated_at: z.union([z.number(), z.string()]).optional(),
  last_access: z.union([z.number(), z.string()]).nullish(),
});
export type SubAccountKey = z.output<typeof SubAccountKey>;

/** The §5.2 permission groups a sub-account key may be given, by the live service's names (§5.5: never withdrawal). */
export const KEY_PERMISSIONS = ['spot', 'futures', 'delivery', 'wallet'] as const;

/** §5.3: at most 20 IPv4 addresses, no ranges. */
export const MAX_KEY_IPS = 20;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const Ipv4 = z.string().trim().regex(IPV4, 'an IPv4 address such as 203.0.113.7 (no ranges)');

/** The operator's label for a key; the desk makes the key's name from it and the write's id, so the name finds it. */
const KeyLabel = z.string().regex(/^[0-9A-Za-z_-]{1,16}$/, 'a key label is 1 to 16 letters, digits, _ or -');

export const SubAccountLockInput = z.strictObject({ user_id: Uid });
export const SubAccountUnlockInput = z.strictObject({ user_id: Uid });
export const SubAccountKeyCreateInput = z.strictObject({
  user_id: Uid,
  label: KeyLabel,
  perms: z
    .array(z.strictObject({ name: z.enum(KEY_PERMISSIONS), read_only: z.boolean() }))
    .min(1, 'a key needs at least one permission group')
    .refine((ps) => new Set(ps.map((p) => p.name)).size === ps.length, 'each permission group once'),
  ip_whitelist: z.array(Ipv4).max(MAX_KEY_IPS, `at most ${MAX_KEY_IPS} IPv4 addresses (§5.3)`).optional(),
});
export const SubAccountKeyDeleteInput = z.strictObject({ user_id: Uid, key: z.string().regex(/^[0-9A-Za-z]{8,128}$/, 'an API key') });
export const SubAccountCreateInput = z.strictObject({
  /** The desk looks this name up (GET /sub_accounts) before any resend: it is the create's client-side id. */
  login_name: z.string().regex(/^[a-z][a-z0-9_]{3,31}$/, 'a login name is 4 to 32 lower-case letters, digits or _, starting with a letter'),
  remark: z.string().trim().max(64).optional(),
});

/** Containment: any operator who may freeze, one confirmation. Access: the change quorum. */
export const MANAGEMENT_CLASS = {
  sub_account_lock: 'contain',
  sub_account_key_delete: 'contain',
  sub_account_unlock: 'access',
  sub_account_key_create: 'access',
  sub_account_create: 'access',
} as const;
export type ManagementKind = keyof typeof MANAGEMENT_CLASS;

export function isManagementKind(kind: string): kind is ManagementKind {
  return Object.prototype.hasOwnProperty.call(MANAGEMENT_CLASS, kind);
}

/** The key's permissions on the journal's flat body: "spot,wallet:read" (the wire carries SubAccountKey.perms). */
export function permsText(perms: ReadonlyArray<{ name: string; read_only: boolean }>): string {
  return perms.map((p) => (p.read_only ? `${p.name}:read` : p.name)).join(',');
}

export function permsOfText(text: string): { name: string; read_only: boolean }[] {
  return text
    .split(',')
    .filter(Boolean)
    .map((p) => ({ name: p.replace(/:read$/, ''), read_only: p.endsWith(':read') }));
}

/** The name a created key carries: the label, then the write id's tail, unique per write. */
export function keyName(label: string, clientId: string): string {
  return `${label}.${clientId.slice(-12)}`;
}

/** A management write in words, from its journaled body (the Activity and Approvals pages' line). */
export function managementSummary(kind: ManagementKind, b: Readonly<Record<string, string | number | boolean>>): string {
  switch (kind) {
    case 'sub_account_lock':
      return `lock sub-account ${String(b.user_id)}`;
    case 'sub_account_unlock':
      return `unlock sub-account ${String(b.user_id)}`;
    case 'sub_account_key_delete':
      return `disable key ${String(b.key).slice(0, 4)}… of sub-account ${String(b.user_id)}`;
    case 'sub_account_key_create':
      return `create key ${String(b.name)} (${String(b.perms)}${b.ip_whitelist ? `; from ${String(b.ip_whitelist)}` : ''}) for sub-account ${String(b.user_id)}`;
    case 'sub_account_create':
      return `create sub-account ${String(b.login_name)}`;
  }
}
