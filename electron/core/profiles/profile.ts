import type { ProfileSummary } from '../../../shared/ipc.ts';
import type { Credentials } from '../client/client.ts';

export interface Profile {
  name: string;
  environment: ProfileSummary['environment'];
  baseUrl: string;
  credentials: Credentials;
  /** Sandbox profiles only, for tests: the Sandbox was started with --no-limits, so the desk need not pace. */
  limitsOff?: boolean;
}

/** The renderer sees a key only like this: enough to tell keys apart, never enough to use one. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '•'.repeat(key.length);
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}

export function summarize(p: Profile): ProfileSummary {
  return { name: p.name, environment: p.environment, base_url: p.baseUrl, key_masked: maskKey(p.credentials.key) };
}
