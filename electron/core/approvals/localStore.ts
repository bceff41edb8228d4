import { join } from 'node:path';
import { Journal, type JournalOptions } from '../journal/journal.ts';
import type { GovernanceBody, GovernanceRecord } from '../journal/records.ts';
import type { OperatorKey } from '../operators/keys.ts';
import { OperatorShelf } from './operatorShelf.ts';
import { StoreConflictError, type GovernanceStore } from './store.ts';

// The single desk's governance store: the records in a journal of their own (the same Journal class, so
// the same MAC chain and sealed head), operator keys and policy copies as files beside it. Operators are
// per desk while each profile's journal records what that profile sent, so desk-level events (operators,
// freezes, policy changes of every profile) get one journal rather than being copied into each profile's.

export class LocalGovernanceStore implements GovernanceStore {
  private readonly journal: Journal;
  private readonly shelf: OperatorShelf;

  /** `name` separates trust domains: the vault's ("governance") and the Sandbox-only desk's ("governance-sandbox"). */
  constructor(dir: string, name: string, journal: JournalOptions) {
    this.shelf = new OperatorShelf(dir);
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
    return this.shelf.operatorKey(id);
  }

  async putOperatorKey(key: OperatorKey): Promise<void> {
    this.shelf.putOperatorKey(key);
  }

  async readPolicyFile(profile: string): Promise<string | null> {
    return this.shelf.readPolicyFile(profile);
  }

  async writePolicyFile(profile: string, text: string): Promise<void> {
    this.shelf.writePolicyFile(profile, text);
  }

  async close(): Promise<void> {
    this.journal.close();
  }
}
