import type { ClientBase } from 'pg';
import { Umzug, type UmzugStorage } from 'umzug';
import { MIGRATIONS } from './migrations/index.ts';

// The team store's schema through Umzug: versioned migration files, the names applied kept in a table
// of the database, and a PostgreSQL advisory lock so that two desks connecting at once do not both run
// the same migration.

const LOCK = 'treasury-desk-team-migrations';

const storage: UmzugStorage<ClientBase> = {
  async executed({ context }) {
    // Asked first: CREATE TABLE IF NOT EXISTS needs the schema's CREATE even when the table is there, which
    // a desk's role on a real team does not have (docs/team.md §A team on a managed PostgreSQL).
    const there = await context.query<{ t: string | null }>("SELECT to_regclass('desk_migrations')::text AS t");
    if (there.rows[0]!.t === null)
      await context.query('CREATE TABLE IF NOT EXISTS desk_migrations (name text PRIMARY KEY, run_at timestamptz NOT NULL DEFAULT now())');
    return (await context.query<{ name: string }>('SELECT name FROM desk_migrations ORDER BY name')).rows.map((r) => r.name);
  },
  async logMigration({ name, context }) {
    await context.query('INSERT INTO desk_migrations (name) VALUES ($1)', [name]);
  },
  async unlogMigration({ name, context }) {
    await context.query('DELETE FROM desk_migrations WHERE name = $1', [name]);
  },
};

/** Brings the schema up to date on `db` (one connection, held for the duration). */
export async function migrate(db: ClientBase): Promise<string[]> {
  await db.query('SELECT pg_advisory_lock(hashtext($1))', [LOCK]);
  try {
    const umzug = new Umzug<ClientBase>({
      migrations: MIGRATIONS.map((m) => ({ name: m.name, up: ({ context }) => m.up(context), down: ({ context }) => m.down(context) })),
      context: db,
      storage,
      logger: undefined,
    });
    return (await umzug.up()).map((m) => m.name);
  } finally {
    await db.query('SELECT pg_advisory_unlock(hashtext($1))', [LOCK]);
  }
}
