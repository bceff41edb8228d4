import type { ClientBase } from 'pg';

// Which desk sends each approved write: one row per write (its client id is the request's or batch row's
// ref), taken by the drafting desk in the same transaction as the signed "dispatched" record that hands
// the request over to sending. The lease's expiry is the database's clock, not a desk's: every desk
// compares it with the same now(). A lease is coordination, not trust: a desk that takes one over still
// asks the exchange by the write's id before sending (approvals/leaseKeeper.ts).

export const name = '0002_send_leases';

export async function up(db: ClientBase): Promise<void> {
  await db.query(`
    CREATE TABLE send_leases (
      ref text PRIMARY KEY,
      request text NOT NULL,
      profile text NOT NULL,
      owner text NOT NULL,
      expires_at timestamptz NOT NULL,
      finished boolean NOT NULL DEFAULT false,
      taken_over integer NOT NULL DEFAULT 0
    )`);
}

export async function down(db: ClientBase): Promise<void> {
  await db.query('DROP TABLE send_leases');
}
