import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { SandboxCredentials } from '../../../shared/sandbox.ts';
import { launchSandbox, type SandboxProcess } from '../../sandbox-launcher.ts';
import { readSandboxCredentials } from '../profiles/sandbox.ts';

/** Where the project lives (the folder holding simulator/), as the launcher needs it. */
export const ROOT = join(import.meta.dirname, '..', '..', '..');

const START_TIMEOUT_MS = 90_000;

export interface SandboxFixture {
  /** A fresh folder for the file's own use (desk homes, journals); the Sandbox's data sits in its `sandbox/`. */
  readonly dir: string;
  readonly sandbox: SandboxProcess;
  readonly credentialsPath: string;
  /** The Sandbox's credentials.json as it wrote it when it started. */
  readonly creds: SandboxCredentials;
}

export interface SandboxFixtureOptions {
  /** The §8.2 limits are on unless a file turns them off (`--no-limits`). */
  limits?: boolean;
  /** A fresh Sandbox for each test instead of one per file: for tests whose balances and counts must be their own. */
  perTest?: boolean;
}

/**
 * One real Sandbox process for a test file, reached over HTTP: started before the file's first test,
 * stopped and its folder removed after the last. Call it at the top of the file, before the file's own
 * hooks: after-hooks run in reverse, so a desk the file closes in its own afterAll still reaches the
 * Sandbox while it closes.
 */
export function useSandbox(name: string, opts: SandboxFixtureOptions = {}): SandboxFixture {
  let dir: string | undefined;
  let sandbox: SandboxProcess | undefined;
  let creds: SandboxCredentials | undefined;
  const before = opts.perTest ? beforeEach : beforeAll;
  const after = opts.perTest ? afterEach : afterAll;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), `${name}-`));
    // A start takes seconds, but far longer on a machine shared with other test runs: the hook's own
    // limit, not the launcher's 30 s, decides when it has failed.
    sandbox = await launchSandbox({
      root: ROOT,
      dataDir: join(dir, 'sandbox'),
      extraArgs: opts.limits === false ? ['--no-limits'] : [],
      timeoutMs: START_TIMEOUT_MS - 5_000,
    });
    creds = readSandboxCredentials(sandbox.credentialsPath);
  }, START_TIMEOUT_MS);
  after(async () => {
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const ready = <T>(v: T | undefined, what: string): T => {
    if (v === undefined)
      throw new Error(`the Sandbox fixture's ${what} was read before its beforeAll ran (read it inside a hook or a test)`);
    return v;
  };
  return {
    get dir() {
      return ready(dir, 'folder');
    },
    get sandbox() {
      return ready(sandbox, 'process');
    },
    get credentialsPath() {
      return ready(sandbox, 'process').credentialsPath;
    },
    get creds() {
      return ready(creds, 'credentials');
    },
  };
}
