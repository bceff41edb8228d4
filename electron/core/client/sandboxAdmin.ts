import { z } from 'zod';
import type { SandboxCredentials } from '../../../shared/sandbox.ts';

// The one call the desk makes to a Sandbox's admin API (docs/sandbox.md §Admin API): a new key pair of an
// account, for a second desk to rehearse on this desk's Sandbox (team/rehearsal.ts). Play money on
// loopback: the admin token is the Sandbox's credentials.json's. Here because client/ is the one door out.

const KeyPair = z.object({ uid: z.string(), key: z.string(), secret: z.string() });

/** A key of `uid` with every group read-write and `unified`, labelled `label`; the Sandbox's refusal as an Error. */
export async function makeSandboxKey(
  creds: Pick<SandboxCredentials, 'admin_url' | 'admin_token'>,
  uid: string,
  label: string,
  fetchImpl: typeof fetch = fetch,
): Promise<z.output<typeof KeyPair>> {
  const perms = { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: true };
  let res: Response;
  try {
    res = await fetchImpl(`${creds.admin_url}/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${creds.admin_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ uid, perms, label }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    throw new Error(`the Sandbox's admin API at ${creds.admin_url} did not answer: ${(e as Error).message}`, { cause: e });
  }
  const text = await res.text();
  if (!res.ok) {
    const label = /"message"\s*:\s*"([^"]{0,200})"/.exec(text)?.[1] ?? text.slice(0, 200);
    throw new Error(`the Sandbox's admin API refused to make a key (${res.status}): ${label}`);
  }
  return KeyPair.parse(JSON.parse(text));
}
