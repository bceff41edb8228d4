import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Journal, type JournalOptions } from '../journal/journal.ts';
import type { GovernanceBody, GovernanceRecord } from '../journal/records.ts';
import type { OperatorKey } from '../operators/keys.ts';
import { writeFileAtomic } from '../vault/file.ts';
import { StoreConflictError, type GovernanceStore } from './store.ts';

// The single desk's governance store: the records in a journal of their own (the same Journal class, so
// the same MAC chain and sealed head), operator keys and policy copies as files beside it. Operators are
// per desk while each profile's journal records what that profile sent, so desk-level events (operators,
// freezes, policy changes of every profile) get one journal rather than being copied into each profile's.

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

export class LocalGovernanceStore implements GovernanceStore {
  private readonly journal: Journal;

  /** `name` separates trust domains: the vault's ("governance") and the Sandbox-only desk's ("governance-sandbox"). */
  constructor(
    private readonly dir: string,
    name: string,
    journal: JournalOptions,
  ) {
    mkdirSync(join(dir, 'operators'), { recursive: true, mode: 0o700 });
    mkdirSync(join(dir, 'policies'), { recursive: true, mode: 0o700 });
    this.journal = Journal.open(join(dir, `${name}.jsonl`), journal);
  }

  async read(): Promise<GovernanceRecord[]> {
    return this.journal.governance();
  }

  async append(body: GovernanceBody, afterSeq: number): Promise<GovernanceRecord> {
    if (this.journal.governance().length !== afterSeq) throw new StoreConflictError();
    return this.journal.append(body) as GovernanceRecord;
  }

  async operatorKey(id: string): Promise<OperatorKey | null> {
    if (!SafeId.test(id)) return null;
    const path = join(this.dir, 'operators', `${id}.json`);
    if (!existsSync(path)) return null;
    // A key file swapped on disk does not help its author: signatures are checked against the public
    // key the governance records hold, never against this file's.
    return StoredKey.parse(JSON.parse(readFileSync(path, 'utf8'))) as OperatorKey;
  }

  async putOperatorKey(key: OperatorKey): Promise<void> {
    writeFileAtomic(join(this.dir, 'operators', `${StoredKey.parse(key).id}.json`), `${JSON.stringify(key, null, 2)}\n`);
  }

  async readPolicyFile(profile: string): Promise<string | null> {
    const path = this.policyPath(profile);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  }

  async writePolicyFile(profile: string, text: string): Promise<void> {
    writeFileAtomic(this.policyPath(profile), text);
  }

  private policyPath(profile: string): string {
    return join(this.dir, 'policies', `${profile.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }

  async close(): Promise<void> {
    this.journal.close();
  }
}
