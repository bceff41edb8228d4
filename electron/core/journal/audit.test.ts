import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textFor } from '../governance/state.ts';
import { LocalGovernanceStore } from '../approvals/localStore.ts';
import { Approvals } from '../approvals/service.ts';
import { createOperatorKey, signAs } from '../operators/keys.ts';
import { auditJournal, type JournalSource } from './audit.ts';
import { auditExport, auditKeys, auditPage, auditVerify, type AuditSources } from './auditHandlers.ts';
import { verifyBundle } from './bundle.ts';
import { Journal } from './journal.ts';
import { testJournalKey } from './testkit/key.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const HOUR = 3_600_000;
const RULES = { coolingOffMs: 24 * HOUR, profiles: () => ['p1'] };

let dir: string;
let clock: number;
let profile: JournalSource;
let governance: JournalSource;

function writeProfileJournal(): void {
  const j = Journal.open(profile.path, { key: testJournalKey, now: () => clock });
  j.append({
    type: 'intent',
    intent: 'w1',
    kind: 'withdrawal',
    client_id: 'w1',
    body: { withdraw_order_id: 'w1', currency: 'USDT', amount: '1.5', address: 'Taddr1', chain: 'TRX' },
  });
  j.append({ type: 'approval', intent: 'w1', by: 'Alice' });
  j.append({ type: 'sent', intent: 'w1', attempt: 1 });
  j.append({ type: 'result', intent: 'w1', outcome: 'accepted', via: 'response', exchange_id: 'x9', status: 'REQUEST' });
  j.close();
}

/** Alice creates the desk and proposes Bob; Bob's addition is still cooling off. */
async function writeGovernance(): Promise<{ bob: string }> {
  const store = new LocalGovernanceStore(dir, 'governance', { key: testJournalKey, now: () => clock });
  const desk = new Approvals({ store, rules: RULES, credential: 'none', now: () => clock, scrypt: FAST });
  const alice = await desk.createFirstOperator('Alice', 'alice passphrase 1');
  const bob = await desk.proposeOperator('Bob', 'bob passphrase 22', alice, 'alice passphrase 1');
  await store.close();
  return { bob };
}

const sources = (): AuditSources => ({ profile, governance: { source: governance, rules: RULES } });

/** Changes one byte of line `n` (1-based) inside its body, keeping it valid JSON. */
function flipByteOfLine(path: string, n: number, from: string, to: string): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  expect(lines[n - 1]).toContain(from);
  lines[n - 1] = lines[n - 1]!.replace(from, to);
  writeFileSync(path, lines.join('\n'));
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'audit-'));
  clock = Date.parse('2026-03-01T10:00:00Z');
  profile = { journal: 'profile', path: join(dir, 'p1.jsonl'), key: testJournalKey };
  governance = { journal: 'governance', path: join(dir, 'governance.jsonl'), key: testJournalKey };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('journal verify', () => {
  it('passes an untouched journal and names the entry whose one byte changed', () => {
    writeProfileJournal();
    expect(auditJournal(profile, null)).toMatchObject({ ok: true, entries: 4, head_seq: 4, entry: null });
    flipByteOfLine(profile.path, 3, '"attempt":1', '"attempt":2');
    const r = auditJournal(profile, null);
    expect(r).toMatchObject({ ok: false, entry: 3 });
    expect(r.reason).toMatch(/Entry 3: its MAC does not verify: it was changed/);
  });

  it('reports entries missing from the end, and a truncated tail', () => {
    writeProfileJournal();
    const whole = readFileSync(profile.path, 'utf8');
    const lines = whole.split('\n');
    writeFileSync(profile.path, `${lines.slice(0, 2).join('\n')}\n`);
    const cut = auditJournal(profile, null);
    expect(cut).toMatchObject({ ok: false, entry: 3, missing: 2 });
    expect(cut.reason).toMatch(/2 entries are missing from the end/);

    writeFileSync(profile.path, whole);
    appendFileSync(profile.path, '{"seq":5,"at":"2026');
    const torn = auditJournal(profile, null);
    expect(torn).toMatchObject({ ok: false, entry: 5, torn: { line: 5, bytes: 19 } });
    expect(torn.reason).toMatch(/not a whole entry .*truncated/);
  });

  it('names a governance entry signed by a key that was not an operator then', async () => {
    const { bob } = await writeGovernance();
    expect(auditJournal(governance, RULES)).toMatchObject({ ok: true, entries: 2 });
    // Someone holding the journal key (or a desk bug) appends a freeze Bob signed during his cooling-off.
    const keys = new LocalGovernanceStore(dir, 'keys', { key: testJournalKey });
    const bobKey = (await keys.operatorKey(bob))!;
    await keys.close();
    const j = Journal.open(governance.path, { key: testJournalKey, now: () => clock + HOUR });
    const text = textFor('freeze', 'f1', 'freeze', '{}', 'stop');
    j.append({
      type: 'freeze',
      ref: 'f1',
      reason: 'stop',
      signed: { action: 'freeze', operator: bob, name: 'Bob', signature: await signAs(bobKey, 'bob passphrase 22', text) },
    });
    j.close();
    const r = auditJournal(governance, RULES);
    expect(r).toMatchObject({ ok: false, entry: 3 });
    expect(r.reason).toMatch(/Entry 3 \(freeze, signed by Bob\): Bob is not an operator yet/);
  });

  it('names a forged operator signature', async () => {
    await writeGovernance();
    const mallory = await createOperatorKey('Alice', 'mallory passphrase', clock, FAST);
    const lines = readFileSync(governance.path, 'utf8').split('\n');
    const alice = (JSON.parse(lines[0]!) as { ref: string }).ref;
    const j = Journal.open(governance.path, { key: testJournalKey, now: () => clock });
    const text = textFor('freeze', 'f1', 'freeze', '{}', 'stop');
    j.append({
      type: 'freeze',
      ref: 'f1',
      reason: 'stop',
      signed: { action: 'freeze', operator: alice, name: 'Alice', signature: await signAs(mallory, 'mallory passphrase', text) },
    });
    j.close();
    expect(auditJournal(governance, RULES).reason).toMatch(/Entry 3 .*Alice's signature does not verify/);
  });
});

describe('journal entries', () => {
  it('merges both journals newest first, filters, and pages by cursor without gaps', async () => {
    await writeGovernance();
    clock += HOUR;
    writeProfileJournal();
    const all = auditPage(sources(), { limit: 100 });
    expect(all.items.map((e) => `${e.journal}:${e.seq}`)).toEqual([
      'profile:4',
      'profile:3',
      'profile:2',
      'profile:1',
      'governance:2',
      'governance:1',
    ]);
    expect(auditPage(sources(), { intent: 'w1', limit: 100 }).items.map((e) => e.type)).toEqual(['result', 'sent', 'approval', 'intent']);
    expect(auditPage(sources(), { by: 'alice', limit: 100 }).items.map((e) => e.type)).toEqual([
      'approval',
      'proposal',
      'operator_created',
    ]);
    expect(auditPage(sources(), { type: 'proposal', limit: 100 }).items).toHaveLength(1);
    expect(auditPage(sources(), { from: '2026-03-02', limit: 100 }).items).toHaveLength(0);
    const first = auditPage(sources(), { limit: 4 });
    const second = auditPage(sources(), { limit: 4, after: first.next! });
    expect([...first.items, ...second.items]).toEqual(all.items);
    expect(second.next).toBeNull();
    expect(auditVerify(sources())).toMatchObject({ verified: true });
    const csv = auditExport(sources(), 'csv', new Date(clock)).text.split('\n');
    expect(csv[0]).toBe('journal,seq,at,type,intent,operators,summary,mac');
    expect(csv).toHaveLength(8);
    // The CSV holds what the page's filters show, and its name says it is a part.
    const sent = auditExport(sources(), 'csv', new Date(clock), { intent: 'w1', type: 'sent' });
    expect(sent).toMatchObject({ entries: 1, filename: expect.stringMatching(/^journal-\d{4}-\d{2}-\d{2}-filtered\.csv$/) });
    expect(
      sent.text
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(',')[3]),
    ).toEqual(['type', 'sent']);
    expect(auditExport(sources(), 'csv', new Date(clock), { by: 'alice' }).entries).toBe(3);
  });
});

describe('journal bundle', () => {
  it('verifies with npm run verify-journal, and fails naming the entry after one byte changes', async () => {
    await writeGovernance();
    writeProfileJournal();
    const bundle = auditExport(sources(), 'bundle', new Date(clock));
    expect(bundle.entries).toBe(6);
    expect(bundle.text).not.toContain(testJournalKey().toString('hex'));
    expect(verifyBundle(bundle.text).ok).toBe(true);
    const file = join(dir, bundle.filename);
    writeFileSync(file, bundle.text);
    const run = (): ReturnType<typeof spawnSync> => spawnSync('npm', ['run', '-s', 'verify-journal', '--', file], { encoding: 'utf8' });
    const good = run();
    expect(good.stdout).toMatch(/^OK {3}profile journal p1: 4 entries/m);
    expect(good.status).toBe(0);
    // The fingerprints the Journal page shows are the ones the command prints, journal by journal.
    const keys = auditKeys(sources());
    expect(keys.map((k) => k.journal)).toEqual(['profile', 'governance']);
    for (const k of keys)
      expect(good.stdout).toMatch(new RegExp(`^OK {3}${k.journal} journal ${k.id}: \\d+ entries, audit key ${k.fingerprint}$`, 'm'));

    writeFileSync(file, bundle.text.replace('\\"amount\\":\\"1.5\\"', '\\"amount\\":\\"1.6\\"'));
    const bad = run();
    expect(bad.stdout).toMatch(/^FAIL profile journal p1: 4 entries, .* - entry 1: it was changed after the desk signed the bundle/m);
    expect(bad.status).toBe(1);
  }, 30_000);

  it('refuses to sign a journal that fails verification, saying why', () => {
    writeProfileJournal();
    flipByteOfLine(profile.path, 2, '"by":"Alice"', '"by":"Alicf"');
    expect(() => auditExport(sources(), 'bundle', new Date(clock))).toThrow(
      /Entry 2: its MAC does not verify.*is not signed: export the CSV/,
    );
  });

  it('fails when a line and its digest are both changed (the signature covers the digests)', async () => {
    writeProfileJournal();
    const b = JSON.parse(auditExport(sources(), 'bundle', new Date(clock)).text) as {
      journals: { lines: string[]; line_sha256: string[] }[];
    };
    b.journals[0]!.lines.pop();
    b.journals[0]!.line_sha256.pop();
    expect(verifyBundle(JSON.stringify(b)).journals[0]!.reason).toMatch(/audit signature does not verify/);
  });
});
