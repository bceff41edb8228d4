import type { Clock } from '../clock.ts';
import type { DB } from '../db.ts';
import type { SandboxOptions } from '../options.ts';

export interface AdminCtx {
  db: DB;
  clock: Clock;
  options: SandboxOptions;
  query: Map<string, string>;
  params: Record<string, string>;
  /** Parsed JSON body (admin calls always send JSON or nothing). */
  body: unknown;
}

/** A route under admin_url (loopback only, Bearer admin_token). Paths are relative to admin_url. */
export interface AdminRouteDef {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  path: string;
  handler: (ctx: AdminCtx) => unknown;
}
