import pg from 'pg';
import { pgConnection } from './url.ts';
import { TeamStoreOfflineError } from './errors.ts';

/** The pool a desk reads and appends through. */
export function teamPool(url: string, password: string | undefined): pg.Pool {
  const pool = new pg.Pool({ ...pgConnection(url, password), max: 4 });
  // A connection dropping (the server stopped, the network gone) must not take the desk's process down:
  // an idle client's error and a busy client's alike are reported by the query that meets them.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Runs `fn` against the database; a failure to reach it or an error it answers is the store being offline. */
export async function reach<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw new TeamStoreOfflineError((e as Error).message || String(e));
  }
}
