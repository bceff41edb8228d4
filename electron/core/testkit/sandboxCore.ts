import { join } from 'node:path';
import { createCore, type ConfirmCore, type Core, type CoreOptions } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import type { SandboxFixture } from './sandbox.ts';

// A whole desk (both windows' channels) over the file's real Sandbox, as the core tests open it: limits
// off, no cooling-off, quiet, its data in the fixture's folder `desk` unless a test says otherwise.

export type Desk = Core & ConfirmCore;

/** The attempt deadline and settle window of test desks: a hold of the Sandbox between them is in doubt. */
export const TEST_WRITES = { requestTimeoutMs: 3_000, settleMs: 2_000 } as const;

/** The same, as a Session takes them (tests that build a Session of their own). */
export const SESSION_WRITES = { settleMs: () => TEST_WRITES.settleMs, requestTimeoutMs: TEST_WRITES.requestTimeoutMs } as const;

export function sandboxCore(sb: SandboxFixture, more: Partial<CoreOptions> = {}): Desk {
  return createCore({
    profile: { ...sandboxProfile(sb.credentialsPath), limitsOff: true },
    dataDir: join(sb.dir, 'desk'),
    log: () => {},
    coolingOffMs: 0,
    // A write's doubt (writes/doubt.ts) in seconds, not the live 105 s: a restarted desk sends soon.
    writes: TEST_WRITES,
    ...more,
  });
}

/** The answer's data, or a throw with the desk's own message. */
export async function ok<T>(p: Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error!.message);
  return r.data as T;
}
