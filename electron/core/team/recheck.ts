import { createHash } from 'node:crypto';

// The periodic re-check of a team store (docs/team.md §Every read verifies every row): does the store
// still hold, byte for byte, every row this desk verified? An edit, a deletion or a reorder of a row
// already verified changes no position, so no notice names it; only comparing the rows finds it.
//
// The database hashes the rows itself, one SHA-256 per window of WINDOW positions, and answers one small
// row per window: a year of records (some 100,000 rows) is one scan on the server and about a hundred
// rows on the wire, not the 100 MB a full read would bring. The desk hashes its own verified rows the same
// way, once per full window (keyed by the window's last link, which the chain of links makes stand for
// every row before it), so a re-check costs the desk one hash of the last, unfinished window.
//
// Why not a running hash kept in the database: it would be one more column the database's administrator
// could edit, and the desk would still have to read every row to check it; hashing in the query reads the
// bytes as stored, which is exactly what must not have changed.

export const WINDOW = 1024;

/** How often every row is re-checked unless the desk is started with another interval. */
export const DEFAULT_RECHECK_MS = 5_000;

export interface WindowDigest {
  w: number;
  n: number;
  hash: string;
}

/** The query that has the database hash every row's bytes, per window, in the order of their positions. */
export const DIGEST_SQL = `SELECT (seq - 1) / ${WINDOW} AS w, count(*)::int AS n,
    encode(sha256(convert_to(string_agg(seq::text || ' ' || entry || ' ' || sig, E'\\n' ORDER BY seq), 'UTF8')), 'hex') AS hash
  FROM governance_records GROUP BY 1 ORDER BY 1`;

/** The same digest of the rows this desk verified (row i at position i + 1). */
export class LocalDigests {
  /** Full windows' hashes by their last link: a window's rows cannot change without changing it. */
  private readonly full = new Map<string, string>();

  of(rows: readonly { entry: string; sig: string }[], links: readonly string[]): WindowDigest[] {
    const out: WindowDigest[] = [];
    for (let start = 0; start < rows.length; start += WINDOW) {
      const end = Math.min(start + WINDOW, rows.length);
      const w = start / WINDOW;
      const key = end - start === WINDOW ? links[end - 1]! : null;
      let hash = key ? this.full.get(key) : undefined;
      if (hash === undefined) {
        const h = createHash('sha256');
        for (let i = start; i < end; i++) h.update(`${i === start ? '' : '\n'}${i + 1} ${rows[i]!.entry} ${rows[i]!.sig}`, 'utf8');
        hash = h.digest('hex');
        if (key) this.full.set(key, hash);
      }
      out.push({ w, n: end - start, hash });
    }
    return out;
  }
}

/** Whether the store's windows are exactly the desk's: same windows, same counts, same hashes. */
export function sameDigests(store: readonly WindowDigest[], desk: readonly WindowDigest[]): boolean {
  return (
    store.length === desk.length && store.every((s, i) => Number(s.w) === desk[i]!.w && s.n === desk[i]!.n && s.hash === desk[i]!.hash)
  );
}

/** Whether the store's rows are still, byte for byte, the `rows` this desk verified (with their `links`). */
export async function storeUnchanged(
  query: (sql: string) => Promise<{ rows: WindowDigest[] }>,
  digests: LocalDigests,
  rows: readonly { entry: string; sig: string }[],
  links: readonly string[],
): Promise<boolean> {
  const store = await query(DIGEST_SQL);
  return sameDigests(store.rows, digests.of(rows, links));
}

/** Runs a re-check every `ms` until stopped, one at a time; the timer keeps no process alive. */
export class RecheckTimer {
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly ms: number,
    private readonly check: () => Promise<void>,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.run(), this.ms);
    this.timer.unref?.();
  }

  /** A re-check now, or the one under way: notices that arrive together are answered by one. */
  run(): Promise<void> {
    this.running ??= this.check().finally(() => (this.running = null));
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
