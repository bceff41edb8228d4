import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesk } from './desk.ts';
import { recordingExchange, type RecordingExchange } from './testkit/recordingExchange.ts';
import { base64DecodeBytes, deriveMasterKey, openBytes } from './vault/crypto.ts';

// "Lock now" must leave no copy of the API secret or the master key in the desk's JavaScript heap:
// a child process unlocks, signs one read, locks, collects garbage and writes a heap snapshot, which
// is then searched for the secret and the master key in every form they could take as a string.

const ROOT = join(import.meta.dirname, '..', '..');
const PASS = 'heap probe passphrase';
const run = promisify(execFile);

describe('after a lock, the heap holds no copy of the secret', () => {
  let dir: string;
  let exchange: RecordingExchange;
  const key = `AK${randomBytes(12).toString('hex')}`;
  const secret = `S${randomBytes(24).toString('hex')}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'desk-heap-'));
    exchange = await recordingExchange();
    const core = openDesk({ home: join(dir, 'home'), log: () => {} });
    await core.invoke('vaultSetPassphrase', { next: PASS });
    const saved = await core.invoke('profileSave', {
      name: 'Heap', environment: 'futures', base_url: exchange.baseUrl, svc: 'Svc', key, secret, sub_keys: [],
      permissions: { spot: 'read', futures: 'none', delivery: 'none', wallet: 'read', withdraw: 'none', unified: false },
    });
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    await core.invoke('profileSelect', { id: (saved as { data: { id: string } }).data.id });
    await core.close();
  });
  afterAll(async () => {
    await exchange?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds neither the API secret nor the master key in a snapshot taken after unlock, a signed read, a lock and a GC', async () => {
    const signedBefore = exchange.signed().length;
    const snapshot = join(dir, 'after-lock.heapsnapshot');
    const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', join(ROOT, 'electron/core/testkit/heapProbe.ts'), join(dir, 'home'), PASS, snapshot], { cwd: ROOT, maxBuffer: 1 << 20 });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toMatchObject({ unlocked: true, locked: true });
    // The probe really signed with the secret: one more signed request with the key reached the exchange.
    expect(exchange.signed().slice(signedBefore).map((r) => r.key)).toEqual([key]);

    const heap = readFileSync(snapshot, 'utf8');
    expect(heap.length).toBeGreaterThan(1_000_000);
    expect(heap).toContain(PASS); // held by process.argv: proof that strings of this length are found
    for (const form of [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex'), secret.slice(1, 25)]) {
      expect(heap.includes(form), `secret as ${form.slice(0, 6)}…`).toBe(false);
    }

    const vault = JSON.parse(readFileSync(join(dir, 'home', 'vault.json'), 'utf8'));
    const { salt, N, r, p } = vault.protection.kdf;
    const kek = await deriveMasterKey(PASS, Buffer.from(salt, 'base64'), { N, r, p });
    const master = base64DecodeBytes(openBytes(kek, vault.protection.wrapped, 'master-key')!)!;
    expect(master.length).toBe(32);
    for (const form of [master.toString('base64'), master.toString('hex'), master.toString('base64url')]) {
      expect(heap.includes(form), 'master key').toBe(false);
    }
  }, 60_000);
});
