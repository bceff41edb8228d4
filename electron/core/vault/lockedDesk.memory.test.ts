import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesk } from '../desk.ts';
import { canScanMemory, countInMemory } from '../testkit/memoryScan.ts';
import { recordingExchange, type RecordingExchange } from '../testkit/recordingExchange.ts';
import { base64DecodeBytes, deriveMasterKey, openBytes } from './crypto.ts';

// "Lock now" in the desk as `npm start` runs it (dist/start/start.mjs, the web host, its own
// Sandbox beside it): unlock, one signed read, lock; then the desk process's whole writable memory is
// searched for the API secret, the master key and every key made from them on the way (the passphrase's
// scrypt key, the sealing and journal keys, the HMAC key blocks of a signature). Nothing forces a
// collection in that process: what is wiped must be wiped by the lock itself.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PASS = 'desk memory probe passphrase';

interface Running {
  child: ChildProcess;
  origin: string;
  token: string;
  lines: string[];
}

async function startDesk(home: string): Promise<Running> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'start', 'start.mjs')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TREASURY_DESK_WEB: '1', TREASURY_DESK_HOME: home },
  });
  const lines: string[] = [];
  for (const s of [child.stdout!, child.stderr!]) createInterface({ input: s }).on('line', (l) => lines.push(l));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setInterval(() => {
      const hit = lines.find((l) => l.startsWith('Treasury Desk: http://'));
      if (hit) {
        clearInterval(t);
        resolve(hit.slice('Treasury Desk: '.length));
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(t);
      reject(new Error(`the desk exited (${code}) before it served:\n${lines.join('\n')}`));
    });
  });
  const u = new URL(url);
  return { child, origin: u.origin, token: u.hash.replace('#token=', ''), lines };
}

async function call(desk: Running, channel: string, payload: unknown): Promise<{ ok: boolean; error?: { message: string } }> {
  const res = await fetch(`${desk.origin}/rpc/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${desk.token}` },
    body: JSON.stringify(payload),
  });
  return (await res.json()) as { ok: boolean; error?: { message: string } };
}

/** The two key blocks HMAC-SHA512 makes of a key of at most 128 bytes (RFC 2104): key ⊕ ipad and key ⊕ opad, zero-padded. */
function hmacBlocks(key: Buffer): Buffer[] {
  return [0x36, 0x5c].map((pad) => {
    const block = Buffer.alloc(128);
    key.copy(block);
    for (let i = 0; i < block.length; i++) block[i]! ^= pad;
    return block.subarray(0, key.length);
  });
}

describe('after "Lock now", the running desk holds no copy of the secret or of any key made on the way to it', () => {
  let dir: string;
  let exchange: RecordingExchange;
  let desk: Running | undefined;
  const key = `AK${randomBytes(12).toString('hex')}`;
  const secret = `S${randomBytes(24).toString('hex')}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'desk-locked-memory-'));
    exchange = await recordingExchange();
    // The profile is stored by an earlier run of the desk, as an operator would have done last week.
    const core = openDesk({ home: join(dir, 'home'), log: () => {} });
    await core.invoke('vaultSetPassphrase', { next: PASS });
    const saved = await core.invoke('profileSave', {
      name: 'Probe',
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
  }, 60_000);

  afterAll(async () => {
    if (desk?.child.pid && desk.child.exitCode === null) {
      const exited = new Promise((r) => desk!.child.once('exit', r));
      process.kill(-desk.child.pid, 'SIGINT');
      await exited;
    }
    await exchange?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds none of them anywhere in its writable memory', async () => {
    const home = join(dir, 'home');
    desk = await startDesk(home);
    const pid = desk.child.pid!;
    const why = canScanMemory(pid);
    if (why !== null) {
      console.warn(`memory scan skipped: ${why}`);
      expect(why).toBeTruthy();
      return;
    }
    const signedBefore = exchange.signed().length;
    expect(await call(desk, 'vaultUnlock', { passphrase: PASS })).toMatchObject({ ok: true });
    expect(await call(desk, 'totalBalance', {})).toMatchObject({ ok: true });
    expect(await call(desk, 'vaultLock', {})).toMatchObject({ ok: true });
    // The desk really signed with the secret.
    expect(
      exchange
        .signed()
        .slice(signedBefore)
        .some((r) => r.key === key && r.url.includes('/wallet/total_balance')),
    ).toBe(true);

    // Every key the desk made on the way, made again here from the vault file and the passphrase.
    const vault = JSON.parse(readFileSync(join(home, 'vault.json'), 'utf8'));
    const { salt, N, r, p } = vault.protection.kdf;
    const kek = await deriveMasterKey(PASS, Buffer.from(salt, 'base64'), { N, r, p });
    const master = base64DecodeBytes(openBytes(kek, vault.protection.wrapped, 'master-key')!)!;
    const derive = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.from('treasury-desk-vault-v1'), info, 32));
    const secretBytes = Buffer.from(secret);
    const needles: [string, Buffer][] = [
      ['the API secret', secretBytes],
      ['the API secret in base64', Buffer.from(secretBytes.toString('base64'))],
      ['the master key', master],
      ['the master key in base64', Buffer.from(master.toString('base64'))],
      ['the master key in hex', Buffer.from(master.toString('hex'))],
      ['the passphrase key (scrypt)', kek],
      ['the sealing key', derive('enc')],
      ['the journal key', derive('journal')],
      ['the HKDF pseudo-random key', createHmac('sha256', Buffer.from('treasury-desk-vault-v1')).update(master).digest()],
      ...hmacBlocks(secretBytes).map((b, i): [string, Buffer] => [`the secret's HMAC ${i ? 'outer' : 'inner'} key block`, b]),
    ];
    // The scan sees this process: the API key, a string the desk keeps on purpose, is found.
    expect(countInMemory(pid, [Buffer.from(key)])[0]).toBeGreaterThan(0);
    const counts = countInMemory(
      pid,
      needles.map(([, b]) => b),
    );
    expect(Object.fromEntries(needles.map(([what], i) => [what, counts[i]]))).toEqual(
      Object.fromEntries(needles.map(([what]) => [what, 0])),
    );
  }, 120_000);
});
