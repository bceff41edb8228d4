import { z } from 'zod';
import { ENVIRONMENT_NAMES, OPERATOR_ENVIRONMENTS, PERMISSION_GROUPS } from '../api/environments.ts';

// Profiles, the vault that guards their secrets, and the desk's settings.

export const PermissionLevel = z.enum(['none', 'read', 'write']);
export const Permissions = z
  .object({
    ...(Object.fromEntries(PERMISSION_GROUPS.map((g) => [g, PermissionLevel])) as Record<
      (typeof PERMISSION_GROUPS)[number],
      typeof PermissionLevel
    >),
    unified: z.boolean(),
  })
  .strict();
export type Permissions = z.infer<typeof Permissions>;

const Name = z.string().trim().min(1, 'a name is required').max(64, 'at most 64 characters');
const ApiKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{8,128}$/, 'an API key is 8 to 128 letters and digits');
const ApiSecret = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{16,256}$/, 'an API secret is 16 to 256 letters and digits');
const BaseUrl = z
  .string()
  .trim()
  .url('a base address such as https://host/api/v4')
  .refine((u) => /^https?:\/\//.test(u) && /\/api\/v4\/?$/.test(u), 'the base address must be http(s) and end in /api/v4');
const Svc = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9]{0,31}$/, 'the service name is letters and digits, as in X-<name>-RateLimit-Limit');

export const ProfileSummary = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.enum(ENVIRONMENT_NAMES),
  base_url: z.string(),
  svc: z.string(),
  key_masked: z.string(),
  permissions: Permissions,
  /** `permissions`: what the exchange has proved this sub-account key cannot do (absent: nothing yet). */
  sub_keys: z.array(z.object({ uid: z.string(), key_masked: z.string(), permissions: Permissions.optional() })),
  /** The Sandbox profile is built in: its keys come from the Sandbox, it cannot be edited or removed. */
  built_in: z.boolean(),
  /** An auditor profile: no exchange key; it reads and verifies the team's approvals and signs and sends nothing. */
  auditor: z.literal(true).optional(),
});
export type ProfileSummary = z.infer<typeof ProfileSummary>;

export const ProfileInput = z
  .object({
    /** Absent for a new profile. */
    id: z.string().max(64).optional(),
    name: Name,
    environment: z.enum(OPERATOR_ENVIRONMENTS),
    base_url: BaseUrl,
    svc: Svc,
    /** Absent when editing: the stored key and secret stay. */
    key: ApiKey.optional(),
    /** Absent when editing the same key: the stored secret stays. */
    secret: ApiSecret.optional(),
    permissions: Permissions,
    sub_keys: z
      .array(
        z
          .object({
            uid: z.string().regex(/^\d{1,20}$/, 'a sub-account uid is digits'),
            key: ApiKey.optional(),
            secret: ApiSecret.optional(),
          })
          .strict(),
      )
      .max(100),
  })
  .strict()
  .superRefine((p, ctx) => {
    const problem = baseUrlProblem(p.environment, p.base_url);
    if (problem) ctx.addIssue({ code: 'custom', path: ['base_url'], message: problem });
  });
export type ProfileInput = z.infer<typeof ProfileInput>;

/** What the operator reads on every page that would need the exchange, while an auditor profile is active. */
export const AUDITOR_NO_KEY = 'This is an auditor profile: it has no exchange key';

/**
 * An auditor profile: a name and the environment whose team it audits, and nothing to sign with. The
 * Sandbox may be chosen too: such a profile audits the Sandbox's (play money) approvals.
 */
export const AuditorProfileInput = z
  .object({
    id: z.string().max(64).optional(),
    name: Name,
    environment: z.enum(ENVIRONMENT_NAMES),
  })
  .strict();
export type AuditorProfileInput = z.infer<typeof AuditorProfileInput>;

/**
 * A key for real money goes out over TLS only: live and simulated-trading profiles take https://. The
 * futures-alternative profile may also name a plain-http exchange on this machine's loopback (a local
 * rehearsal such as the Sandbox), where no relay sits between desk and exchange.
 */
export function baseUrlProblem(environment: string, baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return null; // BaseUrl already names this.
  }
  // Only http(s) is in question here: anything else is BaseUrl's to name.
  if (url.protocol !== 'http:') return null;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (environment === 'futures' && loopback) return null;
  return environment === 'futures'
    ? 'the base address must be https:// (plain http only to this machine: 127.0.0.1, localhost or [::1])'
    : 'a live or simulated-trading profile needs an https:// base address';
}

export const VaultStatus = z.object({
  locked: z.boolean(),
  /** How secrets are kept: the OS keychain through Electron, or a passphrase; null until a secret is stored. */
  backend: z.enum(['safeStorage', 'passphrase']).nullable(),
  passphrase_set: z.boolean(),
  /** Why the OS keychain is not used, when it is not. */
  keychain_note: z.string().nullable(),
  /** After failed passphrases: how long before the next unlock may be tried (0: now). */
  unlock_wait_ms: z.number().int().nonnegative(),
});
export type VaultStatus = z.infer<typeof VaultStatus>;

export const Settings = z
  .object({
    idle_lock_minutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
    settle_seconds: z.number().int().min(5).max(600),
  })
  .strict();
export type Settings = z.infer<typeof Settings>;

const Passphrase = z.string().min(10, 'a passphrase has at least 10 characters').max(1024);

export const profilesChannels = {
  profileCurrent: {
    request: z.object({}).strict(),
    response: ProfileSummary.nullable(),
  },
  profilesList: {
    request: z.object({}).strict(),
    response: z.object({ active_id: z.string().nullable(), profiles: z.array(ProfileSummary) }),
  },
  /** Saves after one read call with the key; a refusal comes back with the label's sentence and nothing is saved. */
  profileSave: {
    request: ProfileInput,
    response: ProfileSummary,
  },
  profileRemove: {
    request: z.object({ id: z.string().max(64) }).strict(),
    response: z.object({ removed: z.literal(true) }),
  },
  profileSelect: {
    request: z.object({ id: z.string().max(64) }).strict(),
    response: ProfileSummary,
  },
  vaultStatus: {
    request: z.object({}).strict(),
    response: VaultStatus,
  },
  /** With the OS keychain the passphrase is empty: the operator's desktop session is the gate. */
  vaultUnlock: {
    request: z.object({ passphrase: z.string().max(1024) }).strict(),
    response: VaultStatus,
  },
  vaultLock: {
    request: z.object({}).strict(),
    response: VaultStatus,
  },
  /**
   * Sets the first passphrase, or (unlocked only) changes it with the current one, or moves a keychain
   * vault to a passphrase with `leave_keychain: true`. Never unlocks a locked desk.
   */
  vaultSetPassphrase: {
    request: z.object({ current: z.string().max(1024).optional(), next: Passphrase, leave_keychain: z.literal(true).optional() }).strict(),
    response: VaultStatus,
  },
  /** The operator used the window (a key or a click): the idle lock's clock starts again. Polling never counts. */
  userActive: {
    request: z.object({}).strict(),
    response: z.object({ locked: z.boolean() }),
  },
  settingsGet: {
    request: z.object({}).strict(),
    response: Settings,
  },
  settingsSave: {
    request: Settings,
    response: Settings,
  },
  /** Saves an auditor profile (no key, nothing asked of the exchange). */
  profileSaveAuditor: {
    request: AuditorProfileInput,
    response: ProfileSummary,
  },
} as const;
