import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { VaultPort } from '../vaultPort.ts';
import { archiveAndRestart } from '../journal/archive.ts';
import type { JournalSource } from '../journal/audit.ts';
import { Journal, JournalDamagedError, type JournalDamage, type JournalOptions } from '../journal/journal.ts';
import { fileJournalKey, type JournalKey } from '../journal/mac.ts';
import { fileRegistry } from '../journal/registry.ts';
import { journalIdOf } from '../journal/verify.ts';
import { watermarkPath, writeWatermark } from '../reconcile/watermark.ts';

// Each profile's write journal, opened once for the life of the core: a quick unlock or a switch back must
// not race the old executor's stop for the same file. A journal that fails verification, or that a
// reconciliation found behind the exchange, is held here as damaged until an operator archives it.

export interface ProfileJournalsOptions {
  /** Where each profile's journal lives (`<dir>/<profile id>.jsonl`). */
  dir: string;
  /** The host's state directory outside the data folder, where each journal's anchor is kept (journal/anchor.ts). */
  anchorDir?: string;
  vault?: VaultPort;
  /** The built-in Sandbox profile's id, or null on a desk without one. */
  builtInId: () => string | null;
  /** The journal's state changed (found damaged, archived, a recovery shown). */
  onChanged?: () => void;
  log?: (line: string) => void;
}

export class ProfileJournals {
  private readonly opened = new Map<string, Journal>();
  private readonly damaged = new Map<string, JournalDamage>();
  /** Where the reconciliation that found a profile's journal behind the exchange read up to (set when archived). */
  private readonly behindThrough = new Map<string, number>();
  private deskKey: JournalKey | null = null;

  constructor(private readonly opts: ProfileJournalsOptions) {}

  path(id: string): string {
    return join(this.opts.dir, `${id.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`);
  }

  /**
   * Stored profiles' journals are keyed from the vault. The built-in Sandbox profile's is keyed by a
   * per-desk file: its own keys sit in clear in the Sandbox's credentials.json, so its journal guards
   * play money only, and it must work with no vault at all (the web host).
   */
  options(id: string): JournalOptions {
    const sandbox = id === this.opts.builtInId();
    const key: JournalKey = sandbox
      ? (this.deskKey ??= fileJournalKey(join(this.opts.dir, 'desk-journal.key')))
      : () => this.opts.vault!.journalKey();
    return {
      key,
      registry: sandbox ? fileRegistry(join(this.opts.dir, 'desk-journal.registry.json'), key) : this.opts.vault!.journalRegistry(),
      ...(this.opts.anchorDir ? { anchorDir: this.opts.anchorDir } : {}),
    };
  }

  /** Why the profile's journal may drive no write, or null. */
  damage(id: string): JournalDamage | null {
    return this.damaged.get(id) ?? null;
  }

  /** The profile's journal, opened at its first use; null while it is damaged. */
  open(id: string): Journal | null {
    let journal = this.opened.get(id);
    if (journal || this.damaged.has(id)) return journal ?? null;
    mkdirSync(this.opts.dir, { recursive: true, mode: 0o700 });
    try {
      journal = Journal.open(this.path(id), this.options(id));
    } catch (e) {
      if (!(e instanceof JournalDamagedError)) throw e;
      this.damaged.set(id, e.damage);
      this.opts.log?.(`[core] ${e.message} Writes on profile ${id} are stopped until an operator archives it.`);
      this.opts.onChanged?.();
      return null;
    }
    this.opened.set(id, journal);
    if (journal.recovered) this.opts.onChanged?.();
    return journal;
  }

  /** A reconciliation found the journal behind the exchange, having read it up to `through`. */
  markBehind(id: string, damage: JournalDamage, through: number): void {
    this.damaged.set(id, damage);
    this.behindThrough.set(id, through);
  }

  /** Keeps the damaged journal as evidence and starts a new one, carrying its unfinished writes over. */
  archive(id: string, damage: JournalDamage): { archivedTo: string; carriedOver: number } {
    // A journal found behind the exchange verified and is still open: close it before it is moved aside.
    const open = this.opened.get(id);
    if (open) {
      open.close();
      this.opened.delete(id);
    }
    const path = this.path(id);
    const { journal, archivedTo, carriedOver } = archiveAndRestart(path, damage, this.options(id));
    // The operator settles what the old journal left (and what a reconciliation found): the next
    // reconciliation starts after it, or the new journal would be found behind the old one's writes.
    const through = this.behindThrough.get(id) ?? Math.floor(Date.now() / 1000);
    writeWatermark(watermarkPath(path), this.options(id).key, journalIdOf(path), { through });
    this.behindThrough.delete(id);
    this.damaged.delete(id);
    this.opened.set(id, journal);
    return { archivedTo, carriedOver };
  }

  /** The profile's journal as the Journal page reads it. */
  auditSource(id: string): JournalSource {
    const { key, registry, anchorDir } = this.options(id);
    return {
      journal: 'profile',
      path: this.path(id),
      key,
      ...(registry ? { registry } : {}),
      ...(anchorDir ? { anchorDir } : {}),
    };
  }

  closeAll(): void {
    for (const j of this.opened.values()) j.close();
    this.opened.clear();
  }
}
