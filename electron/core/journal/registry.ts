import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { RegisterFile, writeFileAtomic } from '../vault/file.ts';
import { makeRegister, registerNames, type JournalRegistry } from '../vault/register.ts';
import type { JournalKey } from './mac.ts';
import { journalIdOf } from './verify.ts';

// Which journals ever existed, kept apart from the journals themselves: an emptied journal whose head
// was deleted looks exactly like a new one, and only a record elsewhere can tell them apart. For the
// vault's journals the record sits inside vault.json, tagged under the vault's journal key (see
// vault.ts), so that without the vault's key nobody can remove a name from it; deleting vault.json
// itself loses every stored profile's keys. It is written once per journal, never on the hot path.

// The register's tag and its check are vault/register.ts's (the vault imports nothing of the journal).
export type { JournalRegistry };

/** A journal's name in the register and its anchor: its folder and its id ("journals/sandbox", "approvals/governance"). */
export function journalNameOf(path: string): string {
  return `${basename(dirname(path))}/${journalIdOf(path)}`;
}

/**
 * The register of the Sandbox profile's journals, in a file beside its key file (journals/desk-journal.key).
 * It holds against an emptied journal or a deleted head alone, not against whoever deletes this file too:
 * the key that tags it is readable in the data folder by design (play money). The anchor outside the
 * data folder still catches that, unless it is deleted as well.
 */
export function fileRegistry(path: string, key: JournalKey): JournalRegistry {
  const read = (): string[] => {
    if (!existsSync(path)) return [];
    let parsed: RegisterFile;
    try {
      parsed = RegisterFile.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      throw new Error(`the register of journals ${path} is not in its format: it was damaged or edited.`);
    }
    return registerNames(key(), parsed, path);
  };
  return {
    has: (name) => read().includes(name),
    add: (name) => writeFileAtomic(path, `${JSON.stringify(makeRegister(key(), [...read(), name]), null, 2)}\n`),
  };
}
