import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesk } from './desk.ts';
import { canScanMemory, countInMemory } from './testkit/memoryScan.ts';
import { recordingExchange, type RecordingExchange } from './testkit/recordingExchange.ts';
import { base64DecodeBytes, deriveMasterKey, openBytes } from './vault/crypto.ts';

// "Lock now" must leave no copy of the API secret or the master key in the desk's process: a child
// process unlocks, signs one read, locks and collects garbage; then its heap snapshot (live objects)
// and its whole writable memory (freed memory included) are searched for the secret and the master key.

const ROOT = join(import.meta.dirname, '..', '..');
const PASS = 'heap probe passphrase';

describe('after a lock, the process holds no copy of the secret', () => {
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
      name: 'Heap',
      environment: 'futures',
      base_url: exchange.baseUrl,
      svc: 'Svc',
      key,
      secret,
      sub_keys: [],
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

  it('finds neither the API secret nor the master key after unlock, a signed read, a lock and a GC', async () => {
    const signedBefore = exchange.signed().length;
    const snapshot = join(dir, 'after-lock.heapsnapshot');
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join(ROOT, 'electron/core/testkit/heapProbe.ts'), join(dir, 'home'), PASS, snapshot],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const exited = new Promise((r) => child.on('exit', r));
    try {
      let out = '';
      const report = await new Promise<{ unlocked: boolean; locked: boolean; pid: number }>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
        });
        child.on('exit', (code) => reject(new Error(`the probe exited (${code}) before it reported`)));
      });
      expect(report).toMatchObject({ unlocked: true, locked: true });
      // The probe really signed with the secret: one more signed request with the key reached the exchange.
      // (The history and balance services may sign reads of their own meanwhile, all with the same key.)
      expect(
        exchange
          .signed()
          .slice(signedBefore)
          .filter((r) => r.url.includes('/wallet/total_balance'))
          .map((r) => r.key),
      ).toEqual([key]);

      const vault = JSON.parse(readFileSync(join(dir, 'home', 'vault.json'), 'utf8'));
      const { salt, N, r, p } = vault.protection.kdf;
      const kek = await deriveMasterKey(PASS, Buffer.from(salt, 'base64'), { N, r, p });
      const master = base64DecodeBytes(openBytes(kek, vault.protection.wrapped, 'master-key')!)!;
      expect(master.length).toBe(32);
      const secretForms = [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')];
      const masterForms = [master.toString('base64'), master.toString('hex'), master.toString('base64url')];

      const heap = readFileSync(snapshot, 'utf8');
      expect(heap).toContain(PASS); // held by process.argv: proof that strings of this length are found
      for (const form of [...secretForms, ...masterForms])
        expect(heap.includes(form), `${form.slice(0, 6)}… in the heap snapshot`).toBe(false);

      // Freed memory too, where a JS string or an unwiped Buffer would linger after the collector ran.
      const why = canScanMemory(report.pid);
      if (why === null) {
        const needles = [Buffer.from(secret), ...masterForms.map((f) => Buffer.from(f)), master];
        expect(countInMemory(report.pid, [Buffer.from(PASS)])[0]).toBeGreaterThan(0); // the scan sees the process
        expect(countInMemory(report.pid, needles)).toEqual(needles.map(() => 0));
      } else {
        console.warn(`memory scan skipped: ${why}`);
      }
    } finally {
      child.stdin.end();
      await exited;
    }
  }, 60_000);
});
