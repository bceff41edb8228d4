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

/**
 * Saves a destination, verified, on the account's exchange-side list (§2.9), as its owner would on the
 * exchange's site. A stored profile's withdrawal may go there at once; a new address-book entry of a
 * stored profile waits the full 24 h cooling-off, which a test cannot.
 */
export async function verifiedSavedAddress(
  creds: Pick<SandboxCredentials, 'admin_url' | 'admin_token' | 'main'>,
  dest: { currency: string; chain: string; address: string; memo?: string },
): Promise<void> {
  await adminCall(creds, 'POST', `/accounts/${creds.main.uid}/saved_addresses`, {
    currency: dest.currency,
    chain: dest.chain,
    address: dest.address,
    ...(dest.memo ? { tag: dest.memo } : {}),
    verified: '1',
  });
}
