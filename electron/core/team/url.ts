import { isIP } from 'node:net';

// Which team store URLs a desk connects to: postgres(ql):// only, and over TLS unless the server is on
// this machine. The records are signed, so TLS is not what keeps them honest; it keeps the database's
// password and the team's queue (who asks to pay whom) off the network in clear.

const TLS_MODES = new Set(['require', 'verify-ca', 'verify-full']);

function loopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (h === '' || h === 'localhost' || h.startsWith('/')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

/** Why `url` is not a team store this desk connects to, or null. */
export function teamUrlRefusal(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'the team store is a postgresql:// URL';
  }
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:') return 'the team store is a postgresql:// URL';
  const host = u.searchParams.get('host') ?? u.hostname;
  if (!loopback(host) && !TLS_MODES.has(u.searchParams.get('sslmode') ?? ''))
    return `the team store at ${u.hostname} is on another machine: add sslmode=verify-full (or require) to its URL, so that the connection is encrypted`;
  return null;
}

/**
 * node-postgres' settings for `url` with `password`: the password goes into the connection string, since
 * node-postgres lets a connection string's (absent) password override one given beside it.
 */
export function pgConnection(url: string, password?: string): { connectionString: string } {
  if (password === undefined) return { connectionString: url };
  const u = new URL(url);
  u.password = password;
  return { connectionString: u.toString() };
}
