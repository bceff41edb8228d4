/** Command-line choices that change how the Sandbox behaves (see simulator/README.md). */
export interface SandboxOptions {
  world: 'demo' | 'bench';
  /** Rate limits off: for load tests only. */
  noLimits: boolean;
  /** Pace of the withdrawal life cycle: 1 is the documented pace, 10 ten times faster, 0 frozen (admin moves only). */
  speed: number;
  /** Refuse a reused withdraw_order_id (off by default: the spec promises no deduplication). */
  refuseDuplicateWithdrawals: boolean;
  /** Another world of the same kind (tests of every world); absent, each world's own fixed seed. */
  seed?: number;
}

export const DEFAULT_OPTIONS: SandboxOptions = { world: 'demo', noLimits: false, speed: 1, refuseDuplicateWithdrawals: false };
