import { readFileSync } from 'node:fs';
import { parseSandboxCredentials, type SandboxCredentials } from '../../../shared/sandbox.ts';
import type { Profile } from './profile.ts';

/** The Sandbox profile's keys live in the Sandbox's own credentials.json (mode 0600; play money only). */
export function readSandboxCredentials(path: string): SandboxCredentials {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read Sandbox credentials at ${path}: ${(e as Error).message}`, { cause: e });
  }
  return parseSandboxCredentials(text, path);
}

/** The ready-made Sandbox profile: the Sandbox's main key and its sub-accounts' keys, no passphrase. */
export function sandboxProfile(credentialsPath: string): Profile {
  const creds = readSandboxCredentials(credentialsPath);
  return {
    name: 'Sandbox',
    environment: 'sandbox',
    baseUrl: creds.base_url,
    credentials: creds.main,
    subKeys: (creds.sub_accounts ?? []).map((k) => ({ uid: k.uid, key: k.key, secret: k.secret })),
  };
}
