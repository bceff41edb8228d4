import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SafeStorageLike } from '../vault/keyring.ts';

// Test helpers for the key-handling tests: an HTTP server that answers every call with a well-formed
// record (the server time, a zero total balance, otherwise {}) and records
// what reached it (an exchange, or a relay that would replay what it captured), and a keyring.

export interface Recorded {
  method: string;
  url: string;
  key: string | undefined;
  sign: string | undefined;
}

export interface RecordingExchange {
  baseUrl: string;
  seen: Recorded[];
  signed(): Recorded[];
  close(): Promise<void>;
}

export async function recordingExchange(): Promise<RecordingExchange> {
  const seen: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const one = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);
    seen.push({ method: req.method ?? '', url: req.url ?? '', key: one(req.headers.key), sign: one(req.headers.sign) });
    const body = req.url?.includes('/spot/time')
      ? { server_time: Date.now() }
      : req.url?.includes('/wallet/total_balance')
        ? { total: { amount: '0', currency: 'USDT' }, details: {} }
        : {};
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`,
    seen,
    signed: () => seen.filter((r) => r.sign !== undefined),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Like Electron's safeStorage over a working keyring: AES under a key "the keyring" holds. */
export function fakeKeyring(backend = 'gnome_libsecret', keyring: Buffer = randomBytes(32), available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', keyring, iv);
      const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), data]);
    },
    decryptString(buf) {
      const d = createDecipheriv('aes-256-gcm', keyring, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8');
    },
  };
}
