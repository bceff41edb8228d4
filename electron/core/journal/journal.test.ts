import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, JournalError, readJournal } from './journal.ts';

let dir: string;
let path: string;
const open: Journal[] = [];

function openJournal(): Journal {
  const j = Journal.open(path);
  open.push(j);
  return j;
}

function closeAll(): void {
  for (const j of open.splice(0)) j.close();
}

function withdrawalIntent(j: Journal, id: string, amount = '1.5'): void {
  j.append({
    type: 'intent', intent: id, kind: 'withdrawal', client_id: id,
    body: { withdraw_order_id: id, currency: 'USDT', amount, address: 'Taddr1', chain: 'TRX' },
  });
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
  it('keeps every record across a reopen, chained by SHA-256, and lists unfinished intents by kind', () => {
    const j = openJournal();
    withdrawalIntent(j, 'w1');
    j.append({ type: 'approval', intent: 'w1', by: 'operator' });
    j.append({ type: 'sent', intent: 'w1', attempt: 1 });
    withdrawalIntent(j, 'w2');
    j.append({ type: 'approval', intent: 'w2', by: 'operator' });
    j.append({ type: 'sent', intent: 'w2', attempt: 1 });
    j.append({ type: 'result', intent: 'w2', outcome: 'accepted', via: 'response', exchange_id: 'w100', status: 'DONE' });
    j.append({
      type: 'intent', intent: 't1', kind: 'main_sub_transfer', client_id: 't1',
      body: { sub_account: '101', currency: 'USDT', amount: '3', direction: 'to', client_order_id: 't1' },
    });
    closeAll();

    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(8);
    for (let i = 1; i < lines.length; i++) {
      const prev = JSON.parse(lines[i - 1]!) as { hash: string };
      const cur = JSON.parse(lines[i]!) as { prev: string; hash: string };
      expect(cur.prev).toBe(prev.hash);
      const withoutHash = `${lines[i]!.replace(/,"hash":"[0-9a-f]{64}"\}$/, '')}}`;
      expect(createHash('sha256').update(withoutHash).digest('hex')).toBe(cur.hash);
    }
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const again = openJournal();
    expect(again.length).toBe(8);
    expect(again.intent('w1')).toMatchObject({ state: 'in_flight', attempts: 1, approved_by: 'operator' });
    expect(again.intent('w2')).toMatchObject({ state: 'done', exchange_id: 'w100', status: 'DONE' });
    expect(again.unfinished('withdrawal').map((v) => v.id)).toEqual(['w1']);
    expect(again.unfinished('main_sub_transfer').map((v) => [v.id, v.state])).toEqual([['t1', 'pending_approval']]);
    expect(again.unfinished().map((v) => v.id).sort()).toEqual(['t1', 'w1']);
  });

  it('refuses a journal whose line was edited, naming the line', () => {
    const j = openJournal();
    withdrawalIntent(j, 'w1');
    withdrawalIntent(j, 'w2', '10');
    withdrawalIntent(j, 'w3');
    closeAll();

    const lines = readFileSync(path, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"amount":"10"', '"amount":"99"');
    writeFileSync(path, lines.join('\n'));
    expect(() => openJournal()).toThrow(JournalError);
    expect(() => openJournal()).toThrow(/line 2: the line does not match its own hash/);
  });

  it('refuses an edit even when the edited line carries a recomputed hash, at the next line', () => {
    const j = openJournal();
    withdrawalIntent(j, 'w1');
    withdrawalIntent(j, 'w2', '10');
    withdrawalIntent(j, 'w3');
    closeAll();

    const lines = readFileSync(path, 'utf8').split('\n');
    const body = `${lines[1]!.replace(/,"hash":"[0-9a-f]{64}"\}$/, '')}}`.replace('"amount":"10"', '"amount":"99"');
    const hash = createHash('sha256').update(body).digest('hex');
    lines[1] = `${body.slice(0, -1)},"hash":"${hash}"}`;
    writeFileSync(path, lines.join('\n'));
    let err: unknown;
    try {
      openJournal();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JournalError);
    expect((err as JournalError).line).toBe(3);
    expect((err as Error).message).toMatch(/line 3: the chain is broken/);
  });

  it('refuses a journal with a line removed', () => {
    const j = openJournal();
    withdrawalIntent(j, 'w1');
    withdrawalIntent(j, 'w2');
    withdrawalIntent(j, 'w3');
    closeAll();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.splice(1, 1);
    writeFileSync(path, lines.join('\n'));
    expect(() => openJournal()).toThrow(/line 2: the record is numbered 3/);
  });

  it('cuts a torn last line (crash mid-write), keeps its bytes aside, and loses no earlier record', () => {
    const j = openJournal();
    withdrawalIntent(j, 'w1');
    j.append({ type: 'approval', intent: 'w1', by: 'op' });
    closeAll();
    const whole = readFileSync(path, 'utf8');
    appendFileSync(path, '{"seq":3,"at":"2026-01-01T00:00:00.000Z","prev":"ab');

    expect(readJournal(path).torn).toEqual({ line: 3, bytes: 51 });
    const again = openJournal();
    expect(again.recovered).toMatchObject({ line: 3, bytes: 51 });
    expect(again.length).toBe(2);
    expect(again.intent('w1')?.state).toBe('approved');
    expect(readFileSync(path, 'utf8')).toBe(whole);
    const saved = readdirSync(dir).filter((f) => f.startsWith('journal.jsonl.torn-'));
    expect(saved).toHaveLength(1);
    expect(readFileSync(join(dir, saved[0]!), 'utf8')).toMatch(/^\{"seq":3/);

    again.append({ type: 'sent', intent: 'w1', attempt: 1 });
    closeAll();
    const third = openJournal();
    expect(third.recovered).toBeNull();
    expect(third.intent('w1')?.state).toBe('in_flight');
  });

  it('lets one writer at a time hold the journal', () => {
    openJournal();
    expect(() => Journal.open(path)).toThrow(/open already/);
    closeAll();
    // A lock left by a process that no longer exists (a crash) is taken over.
    writeFileSync(`${path}.lock`, '999999999');
    expect(openJournal().length).toBe(0);
  });

  it('refuses records that do not fit the state machine before they reach the file', () => {
    const j = openJournal();
    expect(() => j.append({ type: 'sent', intent: 'nobody', attempt: 1 })).toThrow(/never journaled/);
    withdrawalIntent(j, 'w1');
    expect(() => withdrawalIntent(j, 'w1')).toThrow(/journaled already/);
    expect(j.length).toBe(1);
    closeAll();
    expect(readJournal(path).records).toHaveLength(1);
  });

  it('names the changed line for any one-character edit anywhere in the file', () => {
    const j = openJournal();
    for (let i = 0; i < 6; i++) {
      withdrawalIntent(j, `w${i}`, `${i + 1}.5`);
      j.append({ type: 'approval', intent: `w${i}`, by: 'op' });
    }
    closeAll();
    const original = readFileSync(path, 'utf8');
    const lineStarts = [0];
    for (let i = 0; i < original.length - 1; i++) if (original[i] === '\n') lineStarts.push(i + 1);
    const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
    fc.assert(fc.property(fc.integer({ min: 0, max: original.length - 2 }), printable, (pos, ch) => {
      fc.pre(original[pos] !== '\n' && original[pos] !== ch);
      writeFileSync(path, original.slice(0, pos) + ch + original.slice(pos + 1));
      const line = lineStarts.filter((s) => s <= pos).length;
      let err: unknown;
      try {
        Journal.open(path).close();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(JournalError);
      expect((err as JournalError).line).toBe(line);
    }), { numRuns: 300 });
  });
});
