import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSandboxCredentials } from './profiles/sandbox.ts';
import { CHANNEL_NAMES } from '../../shared/ipc.ts';
import type { ConfirmCore, Core } from './core.ts';
import { sendGoverned } from './approvals/testkit/governed.ts';
import { openDesk } from './desk.ts';
import { useSandbox } from './testkit/sandbox.ts';
import { verifiedSavedAddress } from './testkit/sandboxAdmin.ts';

// A live-like profile's key and secret must reach no IPC answer, no event, no log line, no error
// message and no file in clear — whatever the operator does, including mistakes and refusals.

const PASSPHRASE = 'a long enough passphrase';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

describe('the secret stays in the core', () => {
  let core: Core & ConfirmCore;
  let key: string;
  let secret: string;
  const seen: string[] = [];

  const sb = useSandbox('desk-leak', { limits: false });
  beforeAll(async () => {
    const creds = readSandboxCredentials(sb.credentialsPath);
    // The main key of the Sandbox, entered as an operator would enter a live key.
    ({ key, secret } = creds.main);
    core = openDesk({ home: join(sb.dir, 'home'), log: (line) => seen.push(line), coolingOffMs: 0 });
    core.subscribe((event, payload) => seen.push(`${event} ${JSON.stringify(payload)}`));
    const invoke = async (channel: string, payload: unknown) => {
      const reply = await core.invoke(channel, payload);
      seen.push(JSON.stringify(reply));
      return reply;
    };

    await invoke('vaultSetPassphrase', { next: PASSPHRASE });
    const base = {
      name: 'Live-like',
      environment: 'futures',
      base_url: creds.base_url,
      svc: 'Svc',
      key,
      permissions: { spot: 'write', futures: 'read', delivery: 'none', wallet: 'write', withdraw: 'write', unified: false },
      sub_keys: [],
    };
    await invoke('profileSave', { ...base, secret: `${secret.slice(0, -4)}0000` }); // refused: wrong secret
    await invoke('profileSave', { ...base, key: `${key}X`, secret }); // refused: unknown key
    const saved = await invoke('profileSave', { ...base, secret });
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    const id = saved.ok ? (saved.data as { id: string }).id : '';
    await invoke('profileSelect', { id });
    await invoke('totalBalance', { currency: 'BTC' });
    // A stored profile's new address-book entry waits 24 h: the destination is verified at the exchange instead.
    await verifiedSavedAddress(creds, { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA' });
    const w = await sendGoverned(
      core,
      { kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '15' } },
      PASSPHRASE,
    );
    seen.push(JSON.stringify(w));
    await invoke('profileSave', { ...base, id, name: 'Live-like (edited)' }); // an edit without re-entering the secret
    for (const c of CHANNEL_NAMES) await invoke(c, { garbage: key, secret });
    await invoke('vaultLock', {});
    await invoke('totalBalance', {});
    await invoke('vaultUnlock', { passphrase: 'wrong passphrase!' });
    await invoke('vaultUnlock', { passphrase: PASSPHRASE });
    await invoke('intentsList', {});
  }, 60_000);

  afterAll(async () => {
    await core?.close();
  });

  it('did real work: the profile was saved, used and a withdrawal went out', () => {
    const all = seen.join('\n');
    expect(all).toContain('Live-like (edited)');
    expect(all).toMatch(/"state":"(accepted|done)"/);
    expect(all).toContain('INVALID_SIGNATURE');
  });

  it('appears in no answer, event, log line or error message', () => {
    const all = seen.join('\n');
    expect(all).not.toContain(secret);
    expect(all).not.toContain(key);
    expect(all).not.toContain(PASSPHRASE);
  });

  it('appears in no file of the desk in clear', () => {
    const files = filesUnder(join(sb.dir, 'home'));
    expect(files.map((f) => f.slice(sb.dir.length))).toEqual(expect.arrayContaining(['/home/vault.json', '/home/profiles.json']));
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text, f).not.toContain(secret);
      expect(text, f).not.toContain(key);
      expect(text, f).not.toContain(PASSPHRASE);
    }
  });
});
