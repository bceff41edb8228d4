import type { Permissions, ProfileSummary } from '../../../shared/ipc.ts';
import type { Credentials } from '../client/client.ts';

/** A profile ready to sign with: only the core holds one, and only while the vault is unlocked. */
export interface Profile {
  id?: string;
  name: string;
  environment: ProfileSummary['environment'];
  baseUrl: string;
  credentials: Credentials;
  /** The service name in header prefixes (§4.3); 'Svc' by default. */
  svc?: string;
  permissions?: Permissions;
  subKeys?: Array<{ uid: string; key: string; secret: string | Buffer }>;
  builtIn?: boolean;
  /** Sandbox profiles only, for tests: the Sandbox was started with --no-limits, so the desk need not pace. */
  limitsOff?: boolean;
  /** An auditor profile: `credentials` are empty and never used; its client refuses every request (session.ts). */
  auditor?: boolean;
}

export const ALL_WRITE: Permissions = {
  spot: 'write',
  futures: 'write',
  delivery: 'write',
  wallet: 'write',
  withdraw: 'write',
  unified: true,
};

/** The renderer sees a key only like this: enough to tell keys apart, never enough to use one. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '•'.repeat(key.length);
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}

export function summarize(p: Profile): ProfileSummary {
  return {
    id: p.id ?? 'sandbox',
    name: p.name,
    environment: p.environment,
    base_url: p.baseUrl,
    svc: p.svc ?? 'Svc',
    key_masked: maskKey(p.credentials.key),
    permissions: p.permissions ?? ALL_WRITE,
    sub_keys: (p.subKeys ?? []).map((k) => ({ uid: k.uid, key_masked: maskKey(k.key) })),
    built_in: p.builtIn ?? false,
    ...(p.auditor ? { auditor: true as const } : {}),
  };
}
