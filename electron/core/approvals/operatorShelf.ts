import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { OperatorKey } from '../operators/keys.ts';
import { writeFileAtomic } from '../vault/file.ts';

// What a desk keeps for itself whichever store holds its governance records: its operators' keys (the
// private half sealed by each operator's passphrase) and its copies of the policies in force. A team
// store shares records only; these files never leave the desk.

const SafeId = /^[A-Za-z0-9_-]{1,64}$/;

const StoredKey = z.strictObject({
  id: z.string().regex(SafeId),
  name: z.string().min(1).max(64),
  public_key: z.string().min(1).max(200),
  created_at: z.number(),
  sealed_private: z.strictObject({
    salt: z.string(),
    N: z.number().int(),
    r: z.number().int(),
    p: z.number().int(),
    iv: z.string(),
    tag: z.string(),
    data: z.string(),
  }),
});

export class OperatorShelf {
  constructor(private readonly dir: string) {
    mkdirSync(join(dir, 'operators'), { recursive: true, mode: 0o700 });
    mkdirSync(join(dir, 'policies'), { recursive: true, mode: 0o700 });
  }

  operatorKey(id: string): OperatorKey | null {
    if (!SafeId.test(id)) return null;
    const path = join(this.dir, 'operators', `${id}.json`);
    if (!existsSync(path)) return null;
    // A key file swapped on disk does not help its author: signatures are checked against the public
    // key the governance records hold, never against this file's.
    return StoredKey.parse(JSON.parse(readFileSync(path, 'utf8'))) as OperatorKey;
  }

  putOperatorKey(key: OperatorKey): void {
    writeFileAtomic(join(this.dir, 'operators', `${StoredKey.parse(key).id}.json`), `${JSON.stringify(key, null, 2)}\n`);
  }

  readPolicyFile(profile: string): string | null {
    const path = this.policyPath(profile);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  }

  writePolicyFile(profile: string, text: string): void {
    writeFileAtomic(this.policyPath(profile), text);
  }

  private policyPath(profile: string): string {
    return join(this.dir, 'policies', `${profile.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }
}
