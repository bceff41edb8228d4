import pg from 'pg';
import { linkOf } from './envelope.ts';
import { pgConnection, teamUrlRefusal } from './url.ts';

// Settings' "Test connection" for a team store: whether the desk can reach it, and what it holds, in
// words an operator can act on. The password is given apart from the URL (it comes from the vault),
// so that a URL shown or logged never carries it. Nothing is written: no schema, no record.

export type ConnectionTest =
  { reached: true; server: string; team: { records: 0 } | { records: number; founding: string } } | { reached: false; reason: string };

/** Connects once to `url` (as `password`'s user, if given) and says what it found; never throws. */
export async function testTeamStore(url: string, password?: string, timeoutMs = 5000): Promise<ConnectionTest> {
  const refused = teamUrlRefusal(url);
  if (refused) return { reached: false, reason: `Not tried: ${refused}.` };
  const client = new pg.Client({
    ...pgConnection(url, password),
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    const server = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    const table = (await client.query<{ t: string | null }>("SELECT to_regclass('governance_records')::text AS t")).rows[0]!.t;
    if (!table) return { reached: true, server, team: { records: 0 } };
    const count = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM governance_records')).rows[0]!.n);
    if (count === 0) return { reached: true, server, team: { records: 0 } };
    const first = (await client.query<{ entry: string }>('SELECT entry FROM governance_records WHERE seq = 1')).rows[0];
    if (!first)
      return { reached: false, reason: `The store holds ${count} records but no founding record: it is not a team this desk can join.` };
    return { reached: true, server, team: { records: count, founding: linkOf(first.entry) } };
  } catch (e) {
    return { reached: false, reason: unreached(e as Error & { code?: string }) };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Why the store was not reached, in words that name what to change; the password itself never appears. */
function unreached(e: Error & { code?: string }): string {
  const message = e.message || String(e);
  // 28P01: the server refused the password; node-postgres says "client password must be a string" when none was given.
  if (e.code === '28P01') return `The team store refused the password: ${message}. Check the password (nothing was changed).`;
  if (/client password must be a string|password must be a string|no password/i.test(message))
    return 'The team store asks for a password: enter it (nothing was changed).';
  return `Could not reach the team store: ${message}.`;
}
