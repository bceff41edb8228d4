import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { headPath, readHead } from './head.ts';
import { Journal, JournalDamagedError, JournalError, readJournal, type JournalDamage } from './journal.ts';
import { entryMac, fileJournalKey, genesisMac } from './mac.ts';
import { TEST_KEY_BYTES, testJournalKey } from './testkit/key.ts';

let dir: string;
let path: string;
const open: Journal[] = [];

function openJournal(p = path): Journal {
  const j = Journal.open(p, { key: testJournalKey });
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

function withdrawalIntent(j: Journal, id: string, amount = '1.5'): void {
  j.append({
    type: 'intent',
    intent: id,
    kind: 'withdrawal',
    client_id: id,
    body: { withdraw_order_id: id, currency: 'USDT', amount, address: 'Taddr1', chain: 'TRX' },
  });
}

/** Six entries: w1 approved and sent, w2 approved. */
function sixEntries(): string {
  const j = openJournal();
  withdrawalIntent(j, 'w1');
  j.append({ type: 'approval', intent: 'w1', by: 'op' });
  j.append({ type: 'sent', intent: 'w1', attempt: 1 });
  j.append({ type: 'result', intent: 'w1', outcome: 'accepted', via: 'response', exchange_id: 'w9', status: 'REQUEST' });
  withdrawalIntent(j, 'w2', '10');
  j.append({ type: 'approval', intent: 'w2', by: 'op' });
  closeAll();
  return readFileSync(path, 'utf8');
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
  path = join(dir, 'journal.jsonl');
});

afterEach(() => {
  closeAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('journal', () => {
  it("keeps every entry across a reopen, each MAC-chained under the key and the journal's name, with a sealed head", () => {
    const text = sixEntries();
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    let prev = genesisMac(TEST_KEY_BYTES, 'journal');
    for (const line of lines) {
      const cur = JSON.parse(line) as { prev: string; mac: string };
      expect(cur.prev).toBe(prev);
      expect(entryMac(TEST_KEY_BYTES, 'journal', `${line.replace(/,"mac":"[0-9a-f]{64}"\}$/, '')}}`)).toBe(cur.mac);
      prev = cur.mac;
    }
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(headPath(path)).mode & 0o777).toBe(0o600);
    expect(readHead(headPath(path), TEST_KEY_BYTES, 'journal')).toEqual({ kind: 'ok', seq: 6, mac: prev });

    const again = openJournal();
    expect(again.length).toBe(6);
    expect(again.intent('w1')).toMatchObject({ state: 'accepted', exchange_id: 'w9' });
    expect(again.intent('w2')).toMatchObject({ state: 'approved' });
    // Approved by the run before this one: the executor looks such intents up before any send.
    expect(again.approvedInThisRun('w2')).toBe(false);
    withdrawalIntent(again, 'w3');
    again.append({ type: 'approval', intent: 'w3', by: 'op' });
    expect(again.approvedInThisRun('w3')).toBe(true);
  });

  it('refuses forged entries with a recomputed SHA-256 chain (the old format), naming the first', () => {
    const text = sixEntries();
    const last = JSON.parse(text.trimEnd().split('\n').at(-1)!) as { mac: string };
    let prev = last.mac;
    const forged = [
      {
        seq: 7,
        type: 'intent',
        intent: 'evil',
        kind: 'withdrawal',
        client_id: 'evil',
        body: { withdraw_order_id: 'evil', currency: 'USDT', amount: '5000', address: 'Tattacker', chain: 'TRX' },
      },
      { seq: 8, type: 'approval', intent: 'evil', by: 'operator' },
    ].map(({ seq, ...body }) => {
      const t = JSON.stringify({ seq, at: new Date().toISOString(), prev, ...body });
      prev = createHash('sha256').update(t).digest('hex');
      return `${t.slice(0, -1)},"hash":"${prev}"}`;
    });
    appendFileSync(path, `${forged.join('\n')}\n`);
    const d = damageOf(() => openJournal());
    expect(d.entry).toBe(7);
    expect(d.reason).toMatch(/Entry 7: .*earlier version.*did not authenticate/);
  });

  it("refuses forged entries MAC'd under any other key, and an authentic journal moved to another profile", () => {
    const text = sixEntries();
    const lines = text.trimEnd().split('\n');
    const prev = (JSON.parse(lines.at(-1)!) as { mac: string }).mac;
    const other = Buffer.alloc(32, 9);
    const t = JSON.stringify({ seq: 7, at: new Date().toISOString(), prev, type: 'approval', intent: 'w1', by: 'x' });
    appendFileSync(path, `${t.slice(0, -1)},"mac":"${entryMac(other, 'journal', t)}"}\n`);
    expect(damageOf(() => openJournal())).toMatchObject({ entry: 7 });

    writeFileSync(path, text);
    const moved = join(dir, 'other-profile.jsonl');
    copyFileSync(path, moved);
    copyFileSync(headPath(path), headPath(moved));
    expect(damageOf(() => openJournal(moved)).reason).toMatch(/head file does not verify|another profile/);
    unlinkSync(headPath(moved));
    expect(damageOf(() => openJournal(moved))).toMatchObject({ entry: 1 });
  });

  it('finds entries cut from the end (one, two, all but two) against the sealed head, and says how many', () => {
    const text = sixEntries();
    const lines = text.trimEnd().split('\n');
    for (const keep of [5, 4, 2]) {
      writeFileSync(path, `${lines.slice(0, keep).join('\n')}\n`);
      const d = damageOf(() => openJournal());
      expect(d.missing).toBe(6 - keep);
      expect(d.reason).toMatch(new RegExp(`ends at entry ${keep}.*${6 - keep} (entry is|entries are) missing`));
    }
    writeFileSync(path, '');
    expect(damageOf(() => openJournal()).missing).toBe(6);
  });

  it('finds a missing or edited head, and a line removed from the middle', () => {
    const text = sixEntries();
    const head = readFileSync(headPath(path), 'utf8');
    unlinkSync(headPath(path));
    expect(damageOf(() => openJournal()).reason).toMatch(/sealed head is missing/);
    // One slot edited: the other still holds the head before it, as after a crash mid-write of the head.
    writeFileSync(headPath(path), head.replace('"seq":6', '"seq":8'));
    expect(openJournal().length).toBe(6);
    closeAll();
    writeFileSync(headPath(path), head.replace('"seq":6', '"seq":8').replace('"seq":5', '"seq":7'));
    expect(damageOf(() => openJournal()).reason).toMatch(/head file does not verify/);
    writeFileSync(headPath(path), 'x'.repeat(512));
    expect(damageOf(() => openJournal()).reason).toMatch(/head file does not verify/);
    writeFileSync(headPath(path), head);
    const lines = text.split('\n');
    lines.splice(1, 1);
    writeFileSync(path, lines.join('\n'));
    expect(damageOf(() => openJournal())).toMatchObject({ entry: 2 });
  });

  it('refuses two forks of one journal spliced together, though every entry is authentic and numbered right', () => {
    // A backup restored beside the live folder gives an attacker two authentic histories that agree up to
    // a point. Only the chain link tells them apart: here the fork's larger w3 wears the live w3's approval.
    sixEntries();
    const forkDir = mkdtempSync(join(dir, 'fork-'));
    const fork = join(forkDir, 'journal.jsonl');
    copyFileSync(path, fork);
    copyFileSync(headPath(path), headPath(fork));
    const live = openJournal();
    withdrawalIntent(live, 'w3', '10');
    live.append({ type: 'approval', intent: 'w3', by: 'op' });
    const other = openJournal(fork);
    withdrawalIntent(other, 'w3', '99999');
    other.append({ type: 'approval', intent: 'w3', by: 'op' });
    closeAll();
    const liveLines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const forkLines = readFileSync(fork, 'utf8').trimEnd().split('\n');
    expect(forkLines[6]).not.toBe(liveLines[6]);
    writeFileSync(path, `${[...liveLines.slice(0, 6), forkLines[6], liveLines[7]].join('\n')}\n`);
    const d = damageOf(() => openJournal());
    expect(d).toMatchObject({ entry: 8, missing: 0 });
    expect(d.reason).toMatch(/does not follow the entry before it/);
  });

  it('keeps a whole last entry that only lost its newline: nothing is dropped, no alarm', () => {
    const text = sixEntries();
    writeFileSync(path, text.slice(0, -1));
    const j = openJournal();
    expect(j.length).toBe(6);
    expect(j.recovered).toBeNull();
    expect(j.intent('w2')?.state).toBe('approved');
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('cuts a torn line after the head (a crash mid-append), keeps its bytes aside, and reports it', () => {
    const whole = sixEntries();
    appendFileSync(path, '{"seq":7,"at":"2026-01-01T00:00:00.000Z","prev":"ab');
    expect(readJournal(path, testJournalKey).torn).toEqual({ line: 7, bytes: 51 });
    const again = openJournal();
    expect(again.recovered).toMatchObject({ line: 7, bytes: 51 });
    expect(again.length).toBe(6);
    expect(readFileSync(path, 'utf8')).toBe(whole);
    const saved = readdirSync(dir).filter((f) => f.startsWith('journal.jsonl.torn-'));
    expect(saved).toHaveLength(1);
    expect(readFileSync(join(dir, saved[0]!), 'utf8')).toMatch(/^\{"seq":7/);
    again.append({ type: 'sent', intent: 'w2', attempt: 1 });
    closeAll();
    expect(openJournal().recovered).toBeNull();
  });

  it('accepts entries written after the head when a crash came between them, and moves the head', () => {
    sixEntries();
    const staleHead = readFileSync(headPath(path), 'utf8');
    const j = openJournal();
    j.append({ type: 'sent', intent: 'w2', attempt: 1 });
    closeAll();
    writeFileSync(headPath(path), staleHead);
    const again = openJournal();
    expect(again.length).toBe(7);
    expect(again.recovered).toBeNull();
    expect(readHead(headPath(path), TEST_KEY_BYTES, 'journal')).toMatchObject({ seq: 7 });
  });

  it('lets one writer at a time hold the journal', () => {
    openJournal();
    expect(() => Journal.open(path, { key: testJournalKey })).toThrow(/open already/);
    closeAll();
    writeFileSync(`${path}.lock`, '999999999');
    expect(openJournal().length).toBe(0);
  });

  it('refuses records that do not fit the state machine before they reach the file', () => {
    const j = openJournal();
    expect(() => j.append({ type: 'sent', intent: 'nobody', attempt: 1 })).toThrow(JournalError);
    withdrawalIntent(j, 'w1');
    expect(() => withdrawalIntent(j, 'w1')).toThrow(/journaled already/);
    expect(j.length).toBe(1);
    closeAll();
    expect(readJournal(path, testJournalKey).records).toHaveLength(1);
  });

  it('names the changed entry for any one-character edit anywhere in the file', () => {
    const original = sixEntries();
    const lineStarts = [0];
    for (let i = 0; i < original.length - 1; i++) if (original[i] === '\n') lineStarts.push(i + 1);
    const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: original.length - 2 }), printable, (pos, ch) => {
        fc.pre(original[pos] !== '\n' && original[pos] !== ch);
        writeFileSync(path, original.slice(0, pos) + ch + original.slice(pos + 1));
        const line = lineStarts.filter((s) => s <= pos).length;
        const d = damageOf(() => Journal.open(path, { key: testJournalKey }).close());
        expect(d.entry).toBe(line);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a crash at each step of an append (SIGKILL)', () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const runner = join(here, 'testkit', 'appendRunner.ts');
  const tsx = createRequire(import.meta.url).resolve('tsx');

  for (const step of ['line-written', 'line-synced', 'head-written'] as const) {
    it(`killed at "${step}" of entry 3: no alarm on reopen, and entries 1 and 2 are kept`, () => {
      const r = spawnSync(process.execPath, ['--import', tsx, runner, path, '5', '3', step], { encoding: 'utf8' });
      expect(r.signal).toBe('SIGKILL');
      expect(r.stdout.trim().split('\n')).toEqual(['APPENDED 1', 'APPENDED 2']);
      const j = Journal.open(path, { key: fileJournalKey(`${path}.key`) });
      open.push(j);
      // Entry 3 was written whole before the kill in each of these steps; it is kept, never cut.
      expect(j.length).toBe(3);
      expect(j.recovered).toBeNull();
      expect(j.intents().map((v) => v.id)).toEqual(['w1', 'w2', 'w3']);
      expect(readHead(headPath(path), Buffer.from(readFileSync(`${path}.key`, 'utf8').trim(), 'hex'), 'journal')).toMatchObject({ seq: 3 });
    });
  }

  it('a cut into an entry the head already counts is damage, not a torn append', () => {
    const r = spawnSync(process.execPath, ['--import', tsx, runner, path, '2', '99', 'line-written'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, text.length - 40));
    // The head names entry 2, which the cut destroyed: a torn write the head already counted is damage.
    const d = damageOf(() => Journal.open(path, { key: fileJournalKey(`${path}.key`) }));
    expect(d.missing).toBe(1);
  });
});
