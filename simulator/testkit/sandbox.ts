import { afterAll, beforeAll } from 'vitest';
import type { RunningSandbox } from '../app.ts';
import type { SandboxOptions } from '../options.ts';
import type { RouteDef } from '../server.ts';
import { startTestSandbox, type TestSandbox } from './http.ts';

// The simulator's side of the tests' one Sandbox fixture (electron/core/testkit/sandbox.ts is the desk's):
// an in-process Sandbox on loopback, started by the hooks of the scope that calls it and disposed by them.

/** An in-process start takes well under a second, but a 2-core machine shared with other runs can stall it. */
const START_TIMEOUT_MS = 30_000;

/**
 * One Sandbox for the calling scope: at the top of a file it serves the whole file, inside a `describe` that
 * block only (a test that needs a world of its own, or other options, gets a `describe` of its own). Call
 * it before the scope's own hooks: after-hooks run in reverse, so whatever those hooks undo (faults, keys)
 * still reaches the Sandbox.
 *
 * The answer stands for the running Sandbox (`s.baseUrl`, `s.db`, `admin(s, …)`) once the hooks have
 * started it; read while none runs (at a file's top level, after its scope), it throws instead of
 * answering undefined.
 */
export function useTestSandbox(options: Partial<SandboxOptions> = {}, routes?: RouteDef[]): RunningSandbox {
  let running: TestSandbox | undefined;
  beforeAll(async () => {
    running = await startTestSandbox(options, routes);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    const s = running;
    running = undefined;
    await s?.dispose();
  });
  const current = (what: PropertyKey): TestSandbox => {
    if (!running)
      throw new Error(
        `the test Sandbox's ${String(what)} was read while no Sandbox runs (read it inside a test or a hook of the scope that calls useTestSandbox)`,
      );
    return running;
  };
  // A stand-in rather than getters on a wrapper, so that a file keeps reading the Sandbox as it did
  // (`s.credentials.main`) and every member of RunningSandbox is covered without a list to keep in step.
  return new Proxy({} as RunningSandbox, {
    get: (_target, prop) => Reflect.get(current(prop), prop),
    has: (_target, prop) => Reflect.has(current(prop), prop),
  });
}
