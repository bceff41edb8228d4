import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkedStateDir, deskStateDir } from '../paths.ts';
import { DeskVault } from '../vault/vault.ts';
import { anchorPathFor } from './anchor.ts';
import { archiveAndRestart } from './archive.ts';
import { headPath } from './head.ts';
import { Journal, JournalDamagedError, type JournalDamage, type JournalOptions } from './journal.ts';
import { fileRegistry } from './registry.ts';
import { testJournalKey } from './testkit/key.ts';

// A journal that existed cannot pass for a new one, and a data folder restored from an older copy cannot
// take the journals back in time: real files, real fsyncs, the folder copied and restored as a backup
// tool would. The register sits in the data folder (the vault's file, or the Sandbox's register file);
// the anchors sit in a state directory outside it.

let tmp: string;
let data: string;
let state: string;
let path: string;
const open: Journal[] = [];

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'journal-anchor-'));
  data = join(tmp, 'data');
  state = join(tmp, 'state');
  mkdirSync(join(data, 'journals'), { recursive: true });
  path = join(data, 'journals', 'profile-1.jsonl');
});

afterEach(() => {
  for (const j of open.splice(0)) j.close();
  rmSync(tmp, { recursive: true, force: true });
});

function options(extra: Partial<JournalOptions> = {}): JournalOptions {
  return {
    key: testJournalKey,
    registry: fileRegistry(join(data, 'journals', 'desk-journal.registry.json'), testJournalKey),
    anchorDir: state,
    ...extra,
  };
}

function openJournal(opts = options()): Journal {
  const j = Journal.open(path, opts);
  open.push(j);
  return j;
}

function closeAll(): void {
  for (const j of open.splice(0)) j.close();
}

function damageOf(fn: () => unknown): JournalDamage {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(JournalDamagedError);
    return (e as JournalDamagedError).damage;
  }
  throw new Error('the journal opened, but it should have been found damaged');
}

function intent(j: Journal, id: string): void {
  j.append({ type: 'intent', intent: id, kind: 'withdrawal', client_id: id, body: { withdraw_order_id: id, amount: '5' } });
}

function freeze(j: Journal): void {
  j.append({ type: 'freeze', ref: 'f1', reason: 'check', signed: { action: 'freeze', operator: 'op1', name: 'Op', signature: 'sig' } });
}

function emptyAndDropHead(): void {
  writeFileSync(path, '');
  unlinkSync(headPath(path));
}

describe('a journal that existed', () => {
  it('is damage, not a new journal, once emptied and its head deleted', () => {
    const j = openJournal(options({ anchorDir: undefined }));
    intent(j, 'w1');
    intent(j, 'w2');
    closeAll();
    emptyAndDropHead();
    expect(damageOf(() => openJournal(options({ anchorDir: undefined }))).reason).toMatch(
      /register says this journal existed, but its sealed head is missing and it holds 0 entries/,
    );
    rmSync(path);
    expect(damageOf(() => openJournal(options({ anchorDir: undefined }))).reason).toMatch(/head is missing and so is the journal file/);
  });

  it('is damage even when it held no entry: a new journal has a head at entry 0 at once', () => {
    openJournal(options({ anchorDir: undefined }));
    closeAll();
    expect(openJournal(options({ anchorDir: undefined })).length).toBe(0);
    closeAll();
    unlinkSync(headPath(path));
    expect(damageOf(() => openJournal(options({ anchorDir: undefined }))).reason).toMatch(/sealed head is missing/);
  });

  it("is registered in a passphrase vault's own file, which nobody without the key can edit", async () => {
    const vault = DeskVault.open({ path: join(data, 'vault.json'), scrypt: { N: 2 ** 10, r: 8, p: 1 } });
    await vault.setPassphrase(undefined, 'a vault passphrase');
    const opts = (): JournalOptions => ({ key: () => vault.journalKey(), registry: vault.journalRegistry() });
    intent(openJournal(opts()), 'w1');
    closeAll();
    expect(JSON.parse(readFileSync(join(data, 'vault.json'), 'utf8')).journals.names).toEqual(['journals/profile-1']);
    emptyAndDropHead();
    expect(damageOf(() => openJournal(opts())).reason).toMatch(/register says this journal existed/);

    // Taking the name off the list breaks the list's tag: still damage, never "not registered".
    const file = JSON.parse(readFileSync(join(data, 'vault.json'), 'utf8'));
    writeFileSync(join(data, 'vault.json'), JSON.stringify({ ...file, journals: { ...file.journals, names: [] } }));
    const reopened = DeskVault.open({ path: join(data, 'vault.json') });
    await reopened.unlock('a vault passphrase');
    const d = damageOf(() => Journal.open(path, { key: () => reopened.journalKey(), registry: reopened.journalRegistry() }));
    expect(d.reason).toMatch(/cannot tell whether this journal existed before: the register of journals .* does not verify/);
  });

  it('opens as before when it was never registered (a journal from before the register), and is registered from then on', () => {
    const j = Journal.open(path, { key: testJournalKey });
    intent(j, 'w1');
    j.close();
    expect(openJournal().length).toBe(1);
    closeAll();
    writeFileSync(path, '');
    expect(damageOf(() => openJournal()).reason).toMatch(/sealed head says entry 1 was written/);
  });
});

describe('the anchor outside the data folder', () => {
  it('finds a data folder restored from an older copy: the journal went back in time', () => {
    const j = openJournal();
    intent(j, 'w1');
    closeAll();
    cpSync(data, join(tmp, 'backup'), { recursive: true });
    const k = openJournal();
    intent(k, 'w2');
    intent(k, 'w3');
    closeAll();
    rmSync(data, { recursive: true });
    cpSync(join(tmp, 'backup'), data, { recursive: true });
    const d = damageOf(() => openJournal());
    expect(d).toMatchObject({ entry: 2, missing: 2 });
    expect(d.reason).toMatch(
      /ends at entry 1, but its anchor outside the data folder says entry 3 was written.*restored from an older copy/,
    );
  });

  it('says a freeze the restored copy does not hold would be undone', () => {
    intent(openJournal(), 'w1');
    closeAll();
    cpSync(data, join(tmp, 'backup'), { recursive: true });
    freeze(openJournal());
    closeAll();
    rmSync(data, { recursive: true });
    cpSync(join(tmp, 'backup'), data, { recursive: true });
    expect(damageOf(() => openJournal()).reason).toMatch(/anchor records a freeze at entry 2 that this copy does not hold/);
  });

  it('finds another copy of the same length, and an anchor the journal key does not verify', () => {
    intent(openJournal(), 'w1');
    closeAll();
    cpSync(data, join(tmp, 'backup'), { recursive: true });
    intent(openJournal(), 'w2');
    closeAll();
    // The backup grows its own second entry: same length, another chain.
    rmSync(data, { recursive: true });
    cpSync(join(tmp, 'backup'), data, { recursive: true });
    const fork = Journal.open(path, { key: testJournalKey });
    intent(fork, 'w2-other');
    fork.close();
    expect(damageOf(() => openJournal()).reason).toMatch(/Entry 2 is not the entry its anchor outside the data folder names/);

    const other = (): Buffer => Buffer.alloc(32, 9);
    rmSync(data, { recursive: true });
    mkdirSync(join(data, 'journals'), { recursive: true });
    expect(damageOf(() => openJournal(options({ key: other, registry: undefined }))).reason).toMatch(
      /anchor .* does not verify with the journal key/,
    );
  });

  it('missing, for a journal the register says was anchored, is damage; for an unregistered one it is made', () => {
    intent(openJournal(), 'w1');
    closeAll();
    const anchor = anchorPathFor(state, path);
    expect(existsSync(anchor)).toBe(true);
    expect(anchor.startsWith(data)).toBe(false);
    unlinkSync(anchor);
    expect(damageOf(() => openJournal()).reason).toMatch(/anchor .* is missing, though the register says this journal was anchored/);

    unlinkSync(join(data, 'journals', 'desk-journal.registry.json'));
    expect(openJournal().length).toBe(1);
    closeAll();
    expect(existsSync(anchor)).toBe(true);
  });

  it('lets a first start and every normal restart through, and an anchor one entry behind (a crash after the head)', () => {
    const j = openJournal();
    expect(j.length).toBe(0);
    intent(j, 'w1');
    closeAll();
    const anchor = anchorPathFor(state, path);
    const atOne = readFileSync(anchor);
    intent(openJournal(), 'w2');
    closeAll();
    writeFileSync(anchor, atOne);
    expect(openJournal().length).toBe(2);
    closeAll();
    expect(openJournal().length).toBe(2);
  });

  it('is set aside when the operator archives the damaged journal, and the new journal is anchored anew', () => {
    const j = openJournal();
    intent(j, 'w1');
    j.append({ type: 'approval', intent: 'w1', by: 'op' });
    closeAll();
    cpSync(data, join(tmp, 'backup'), { recursive: true });
    intent(openJournal(), 'w2');
    closeAll();
    rmSync(data, { recursive: true });
    cpSync(join(tmp, 'backup'), data, { recursive: true });
    const damage = damageOf(() => openJournal());
    const { journal, carriedOver } = archiveAndRestart(path, damage, options());
    open.push(journal);
    expect(carriedOver).toBe(1);
    closeAll();
    expect(readdirSync(state).filter((f) => f.includes('.archived-'))).toHaveLength(1);
    expect(openJournal().intent('w1')).toMatchObject({ state: 'needs_attention' });
  });
});

describe('the state directory', () => {
  it('is never the data folder or inside it, and defaults to a folder beside it', () => {
    expect(() => checkedStateDir(data, data)).toThrow(/inside the data folder/);
    expect(() => checkedStateDir(data, join(data, 'anchors'))).toThrow(/inside the data folder/);
    expect(checkedStateDir(data, state)).toBe(state);
    expect(deskStateDir(data, {})).toBe(`${data}.anchors`);
    expect(deskStateDir(data, { TREASURY_DESK_STATE: state })).toBe(state);
  });
});
