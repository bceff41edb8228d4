import { createHash, createHmac } from 'node:crypto';

import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { sandboxGet } from './sandboxApi.ts';

// The tests' own reads and writes of the Sandbox's histories, signed here (not by the desk's client),
// so that what the desk shows is checked against what the exchange says.

const DAY = 86_400;

export async function sandboxNow(credentialsPath: string): Promise<number> {
  const creds = readSandboxCredentials(credentialsPath);
  const res = await fetch(`${creds.base_url}/spot/time`);
  return Math.floor(((await res.json()) as { server_time: number }).server_time / 1000);
}

/** Every record of a windowed list over the last `days` days, read 30 days and one page at a time. */
export async function sandboxAll<T>(credentialsPath: string, path: string, extra = '', days = 366): Promise<T[]> {
  const now = await sandboxNow(credentialsPath);
  const limit = path === '/wallet/deposits' ? 500 : 1000;
  const seen = new Map<string, T>();
  for (let from = now - days * DAY; from < now; from += 30 * DAY) {
    const to = Math.min(from + 30 * DAY, now);
    for (let offset = 0; ; offset += limit) {
      const rows = await sandboxGet<T[]>(
        credentialsPath,
        path,
        `${extra ? `${extra}&` : ''}from=${from}&to=${to}&limit=${limit}&offset=${offset}`,
      );
      for (const r of rows) seen.set(JSON.stringify((r as { id?: unknown }).id ?? r), r);
      if (rows.length < limit) break;
    }
  }
  return [...seen.values()];
}

export async function sandboxSend<T>(credentialsPath: string, method: 'POST' | 'DELETE', path: string, body?: object): Promise<T> {
  const creds = readSandboxCredentials(credentialsPath);
  const url = new URL(creds.base_url);
  const fullPath = `${url.pathname}${path}`;
  const text = body ? JSON.stringify(body) : '';
  const ts = String(Math.floor(Date.now() / 1000));
  const payload = [method, fullPath, '', createHash('sha512').update(text).digest('hex'), ts].join('\n');
  const sign = createHmac('sha512', creds.main.secret).update(payload).digest('hex');
  const res = await fetch(`${url.origin}${fullPath}`, {
    method,
    body: text || undefined,
    headers: { KEY: creds.main.key, Timestamp: ts, SIGN: sign, ...(text ? { 'Content-Type': 'application/json' } : {}) },
  });
  if (!res.ok) throw new Error(`Sandbox answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

export async function adminMove(credentialsPath: string, id: string, status: string): Promise<void> {
  const creds = readSandboxCredentials(credentialsPath);
  const res = await fetch(`${creds.admin_url}/withdrawals/${id}/status`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${creds.admin_token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ status }),
  });
  if (!res.ok) throw new Error(`admin move answered ${res.status}: ${await res.text()}`);
}

/** Forgets every rate window (the desk's own withdrawal just used the 1-per-3-s budget of POST /withdrawals). */
export async function adminResetLimits(credentialsPath: string): Promise<void> {
  const creds = readSandboxCredentials(credentialsPath);
  const res = await fetch(`${creds.admin_url}/limits/reset`, { method: 'POST', headers: { Authorization: `Bearer ${creds.admin_token}` } });
  if (!res.ok) throw new Error(`limits reset answered ${res.status}: ${await res.text()}`);
}
