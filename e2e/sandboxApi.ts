import { readSandboxCredentials } from '../electron/core/profiles/sandbox.ts';
import { adminCall } from '../electron/core/testkit/sandboxAdmin.ts';
import { createHash, createHmac } from 'node:crypto';

// The tests' own signed reader of the Sandbox, written apart from the desk's client, so that a figure
// on screen is checked against what the exchange says rather than against the desk's own code.

export async function sandboxGet<T>(credentialsPath: string, path: string, query = ''): Promise<T> {
  const creds = readSandboxCredentials(credentialsPath);
  return signedGet<T>(creds.base_url, creds.main, path, query);
}

async function signedGet<T>(baseUrl: string, who: { key: string; secret: string }, path: string, query: string): Promise<T> {
  const url = new URL(baseUrl);
  const fullPath = `${url.pathname}${path}`;
  const ts = String(Math.floor(Date.now() / 1000));
  const payload = ['GET', fullPath, query, createHash('sha512').update('').digest('hex'), ts].join('\n');
  const sign = createHmac('sha512', who.secret).update(payload).digest('hex');
  const res = await fetch(`${url.origin}${fullPath}${query ? `?${query}` : ''}`, { headers: { KEY: who.key, Timestamp: ts, SIGN: sign } });
  if (!res.ok) throw new Error(`Sandbox answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A call to the Sandbox's admin API (Bearer admin_token from credentials.json). */
export function sandboxAdmin<T>(credentialsPath: string, method: string, path: string, body?: unknown): Promise<T> {
  return adminCall<T>(readSandboxCredentials(credentialsPath), method, path, body);
}

/** A signed POST to the Sandbox with the main key (the test's own, not the desk's client). */
export async function sandboxPost<T>(credentialsPath: string, path: string, body: unknown): Promise<T> {
  const creds = readSandboxCredentials(credentialsPath);
  const url = new URL(creds.base_url);
  const fullPath = `${url.pathname}${path}`;
  const text = JSON.stringify(body);
  const ts = String(Math.floor(Date.now() / 1000));
  const payload = ['POST', fullPath, '', createHash('sha512').update(text).digest('hex'), ts].join('\n');
  const sign = createHmac('sha512', creds.main.secret).update(payload).digest('hex');
  const res = await fetch(`${url.origin}${fullPath}`, {
    method: 'POST',
    headers: { KEY: creds.main.key, Timestamp: ts, SIGN: sign, 'Content-Type': 'application/json' },
    body: text,
  });
  if (!res.ok) throw new Error(`Sandbox answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A GET signed with one sub-account's own key from credentials.json: what that sub-account sees. */
export async function sandboxGetAs<T>(credentialsPath: string, uid: string, path: string, query = ''): Promise<T> {
  const creds = readSandboxCredentials(credentialsPath);
  const sub = (creds.sub_accounts ?? []).find((k) => k.uid === uid);
  if (!sub) throw new Error(`credentials.json holds no key for sub-account ${uid}`);
  return signedGet<T>(creds.base_url, sub, path, query);
}
