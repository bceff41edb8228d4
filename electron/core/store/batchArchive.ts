import { z } from 'zod';
import { JsonFile } from './jsonFile.ts';

// Which payout and rebalance batches an operator archived, per profile, in one small JSON file of the
// data folder (written whole and atomically). A batch stays listed on its page, with its state and
// report, across navigation and restarts until it is archived here; archiving hides it from the list
// and nothing else: the journal, the approvals and the report are kept as they were.

export type BatchKind = 'payouts' | 'rebalance';

const Archived = z.object({ archived_at: z.number() }).strict();
const File = z.record(z.string().max(64), z.object({ payouts: z.record(z.string(), Archived), rebalance: z.record(z.string(), Archived) }));

export class BatchArchive {
  private readonly file: JsonFile<typeof File>;

  constructor(path: string) {
    this.file = new JsonFile(path, File, () => ({}));
  }

  /** The refs of the profile's archived batches of a kind. */
  archived(profile: string, kind: BatchKind): ReadonlySet<string> {
    return new Set(Object.keys(this.file.read()[profile]?.[kind] ?? {}));
  }

  archive(profile: string, kind: BatchKind, ref: string, at: number): void {
    const all = this.file.read();
    const mine = all[profile] ?? { payouts: {}, rebalance: {} };
    mine[kind][ref] ??= { archived_at: at };
    all[profile] = mine;
    this.file.write(all);
  }
}
