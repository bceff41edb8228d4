import type { SandboxCredentials } from '../../../shared/sandbox.ts';

// The Sandbox's admin API (simulator/admin/) as tests call it: make sub-accounts and keys, deposit,
// inject faults, count records. One place for the Bearer token and the error that names the answer.

export async function adminCall<T = unknown>(
  creds: Pick<SandboxCredentials, 'admin_url' | 'admin_token'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${creds.admin_url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${creds.admin_token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Sandbox admin ${method} ${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
