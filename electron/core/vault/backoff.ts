import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from './file.ts';

// Failed unlocks back off so that a script in the window cannot try passphrases as fast as scrypt runs.
// The count is kept in the data folder to survive a restart. Whoever can write that folder can reset it
// (and could copy vault.json to guess offline anyway): the backoff guards against the window, not
// against the folder's owner.

const State = z.object({ failures: z.number().int().nonnegative(), last_failed_at: z.number() });
type State = z.infer<typeof State>;

/** Free tries before the first wait: a typo or two cost nothing. */
export const FREE_FAILURES = 2;
export const MAX_WAIT_MS = 15 * 60_000;

/** The wait after `failures` failed unlocks: 1 s after the third, doubling, at most 15 minutes. */
export function backoffDelayMs(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(MAX_WAIT_MS, 1000 * 2 ** Math.min(failures - FREE_FAILURES - 1, 30));
}

export class UnlockBackoff {
  private state: State;

  constructor(
    private readonly path: string,
    private readonly now: () => number,
  ) {
    this.state = UnlockBackoff.read(path);
  }

  private static read(path: string): State {
    if (!existsSync(path)) return { failures: 0, last_failed_at: 0 };
    try {
      return State.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      // A damaged file counts as many failures, not as none: deleting it is the way to reset.
      return { failures: FREE_FAILURES + 1, last_failed_at: 0 };
    }
  }

  /** How long until the next unlock may be tried (0: now). A clock set back does not lengthen the wait. */
  waitMs(): number {
    const delay = backoffDelayMs(this.state.failures);
    if (delay === 0) return 0;
    const left = this.state.last_failed_at + delay - this.now();
    return Math.max(0, Math.min(delay, left));
  }

  failed(): void {
    this.save({ failures: this.state.failures + 1, last_failed_at: this.now() });
  }

  succeeded(): void {
    if (this.state.failures > 0) this.save({ failures: 0, last_failed_at: 0 });
  }

  private save(next: State): void {
    this.state = next;
    writeFileAtomic(this.path, `${JSON.stringify(next)}\n`);
  }
}
