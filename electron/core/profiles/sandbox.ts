import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { sandboxUrlProblem } from '../../../shared/rehearsal.ts';
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

/**
 * What a desk that joined another desk's Sandbox keeps (`rehearsal.json` in its data folder, 0600): that
 * Sandbox's address and the key it made for this desk. Sandbox keys only, in clear like credentials.json
 * (play money on loopback, docs/security.md §Keys at rest): the address is checked again when read, so an
 * edited file cannot point the built-in profile anywhere but a loopback Sandbox.
 */
const Rehearsal = z
  .object({
    base_url: z.string().refine((u) => sandboxUrlProblem(u) === null, 'is not a Sandbox address on this machine'),
    uid: z.string().regex(/^\d{1,20}$/),
    key: z.string().min(1),
    secret: z.string().min(1),
  })
  .strict();

export function rehearsalPath(dataDir: string): string {
  return join(dataDir, 'rehearsal.json');
}

/** The built-in profile on another desk's Sandbox, when this desk joined one (null otherwise). */
export function rehearsalProfile(dataDir: string): Profile | null {
  let text: string;
  try {
    text = readFileSync(rehearsalPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${rehearsalPath(dataDir)} is not JSON: remove it to use this desk's own Sandbox`);
  }
  const parsed = Rehearsal.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `${rehearsalPath(dataDir)} is malformed (${parsed.error.issues[0]!.path.join('.')}): remove it to use this desk's own Sandbox`,
    );
  const r = parsed.data;
  return { name: 'Sandbox', environment: 'sandbox', baseUrl: r.base_url, credentials: { key: r.key, secret: r.secret }, subKeys: [] };
}

/** Keeps the other desk's Sandbox and key: the built-in profile uses them from now on, also after a restart. */
export function keepRehearsal(dataDir: string, r: z.input<typeof Rehearsal>): void {
  const path = rehearsalPath(dataDir);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(Rehearsal.parse(r), null, 2)}\n`, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/** The desk's built-in profile: the Sandbox it joined (rehearsal.json), else its own Sandbox's. */
export function builtInSandbox(dataDir: string, credentialsPath: string | undefined): Profile | undefined {
  return rehearsalProfile(dataDir) ?? (credentialsPath ? sandboxProfile(credentialsPath) : undefined);
}
