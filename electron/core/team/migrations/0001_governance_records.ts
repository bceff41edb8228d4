import type { ClientBase } from 'pg';

// The governance records, one row per record: the signed entry exactly as its desk wrote it (text, not
// jsonb, so that the bytes every desk verifies are the bytes stored) and the desk's signature over it.
// The primary key is what makes a position taken once: two desks appending after the same record race
// for one seq, and the second insert fails.

export const name = '0001_governance_records';

export async function up(db: ClientBase): Promise<void> {
  await db.query(`
    CREATE TABLE governance_records (
      seq integer PRIMARY KEY CHECK (seq >= 1),
      entry text NOT NULL,
      sig text NOT NULL,
      stored_at timestamptz NOT NULL DEFAULT now()
    )`);
}

export async function down(db: ClientBase): Promise<void> {
  await db.query('DROP TABLE governance_records');
}
