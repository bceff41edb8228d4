import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Profile } from './profile.ts';

const KeyEntry = z.object({ uid: z.string(), key: z.string(), secret: z.string() });

export const SandboxCredentials = z.object({
  base_url: z.string().url(),
  main: KeyEntry,
  read_only: KeyEntry.optional(),
  sub_accounts: z.array(KeyEntry).optional(),
});
export type SandboxCredentials = z.infer<typeof SandboxCredentials>;

/** The Sandbox profile's keys live in the Sandbox's own credentials.json (mode 0600; play money only). */
export function readSandboxCredentials(path: string): SandboxCredentials {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read Sandbox credentials at ${path}: ${(e as Error).message}`);
  }
  const parsed = SandboxCredentials.safeParse(raw);
  if (!parsed.success) throw new Error(`Sandbox credentials at ${path} are malformed: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** The ready-made Sandbox profile: the Sandbox's main key and its sub-accounts' keys, no passphrase. */
export function sandboxProfile(credentialsPath: string): Profile {
  const creds = readSandboxCredentials(credentialsPath);
  return {
    name: 'Sandbox', environment: 'sandbox', baseUrl: creds.base_url, credentials: creds.main,
    subKeys: (creds.sub_accounts ?? []).map((k) => ({ uid: k.uid, key: k.key, secret: k.secret })),
  };
}
