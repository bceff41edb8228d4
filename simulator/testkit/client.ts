import type { RunningSandbox } from '../app.ts';
import { lifecycleTick } from '../lifecycle.ts';
import type { SandboxOptions } from '../options.ts';
import { admin, send, signed, startTestSandbox, type Key as SigningKey, type Reply, type TestSandbox } from './http.ts';
import { useTestSandbox } from './sandbox.ts';

// A signed client over real HTTP for the contract tests of the Sandbox's endpoints. Limits are off and
// the life cycle crawls unless a test asks otherwise, so that each test moves withdrawals itself.

/** Slow enough that the timer never moves a withdrawal during a test; step() moves them on purpose. */
export const SLOW = 0.001;

export interface Key extends SigningKey {
  uid: string;
}

export interface Client {
  s: RunningSandbox;
  main: Key;
  readOnly: Key;
  subs: Key[];
  get(path: string, query?: Record<string, string | number>, key?: Key): Promise<Reply>;
  post(path: string, body: unknown, key?: Key): Promise<Reply>;
  del(path: string, key?: Key): Promise<Reply>;
  put(path: string, body: unknown, key?: Key): Promise<Reply>;
  publicGet(path: string, query?: Record<string, string | number>): Promise<Reply>;
  admin(method: string, path: string, body?: unknown): Promise<Reply>;
  /** Moves every waiting withdrawal one step along its life cycle. */
  step(): number;
}

function qs(query: Record<string, string | number> = {}): string {
  return Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

const clientOptions = (options: Partial<SandboxOptions>): Partial<SandboxOptions> => ({ noLimits: true, speed: SLOW, ...options });

/** The file's (or the describe block's) client over a Sandbox of its own, started and disposed by the scope's hooks. */
export function useClient(options: Partial<SandboxOptions> = {}): Client {
  return clientOf(useTestSandbox(clientOptions(options)));
}

/**
 * A client over a Sandbox started now, for a test that needs several in turn (one per generated seed); the
 * caller disposes it. Everywhere else, useClient.
 */
export async function startClient(options: Partial<SandboxOptions> = {}): Promise<Client & { s: TestSandbox }> {
  const s = await startTestSandbox(clientOptions(options));
  return { ...clientOf(s), s };
}

// Reads the Sandbox at each call, never when built: useClient builds it before its Sandbox has started.
function clientOf(s: RunningSandbox): Client {
  const ts = () => String(Math.floor(s.clock.now()));
  return {
    s,
    get main() {
      return s.credentials.main;
    },
    get readOnly() {
      return s.credentials.read_only;
    },
    get subs() {
      return s.credentials.sub_accounts;
    },
    // Signed at the Sandbox's time, so that a test may advance its clock.
    get: (path, query, key = s.credentials.main) => signed(s.baseUrl, key, { method: 'GET', path, query: qs(query), timestamp: ts() }),
    post: (path, body, key = s.credentials.main) =>
      signed(s.baseUrl, key, { method: 'POST', path, body: body === undefined ? '' : JSON.stringify(body), timestamp: ts() }),
    del: (path, key = s.credentials.main) => signed(s.baseUrl, key, { method: 'DELETE', path, timestamp: ts() }),
    put: (path, body, key = s.credentials.main) =>
      signed(s.baseUrl, key, { method: 'PUT', path, body: JSON.stringify(body), timestamp: ts() }),
    publicGet: (path, query) =>
      send(s.baseUrl, { method: 'GET', path: `${new URL(s.baseUrl).pathname}${path}${query ? `?${qs(query)}` : ''}` }),
    admin: (method, path, body) => admin(s, method, path, body),
    step: () => {
      // Everything waiting is due now; the records keep real times (no jump of the clock).
      s.db.prepare('UPDATE withdrawals SET next_at = ? WHERE next_at IS NOT NULL').run(s.clock.now() - 1);
      return lifecycleTick(s.db, s.clock.now(), SLOW);
    },
  };
}

/** The §7 label of a failed reply (and its status), for compact assertions. */
export function failure(r: Reply): { status: number; label: string } {
  return { status: r.status, label: (r.json as { label?: string } | undefined)?.label ?? `(no label: ${r.text.slice(0, 80)})` };
}

/** Spot available of a currency for the caller of `key`, read over the API. */
export async function spotAvailable(c: Client, currency: string, key = c.main): Promise<string> {
  const r = await c.get('/spot/accounts', { currency }, key);
  if (r.status !== 200) throw new Error(`spot/accounts answered ${r.status} ${r.text}`);
  return (r.json as { available: string }[])[0]?.available ?? '0';
}
