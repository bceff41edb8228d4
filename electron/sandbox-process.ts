import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

// The desk runs the Sandbox as a process of its own and reaches it over HTTP only, as it would a real
// exchange. How the process is started depends on where the desk runs: under Node (`npm start`, the
// tests, the benchmarks: sandbox-launcher.ts) or in a packaged app (Electron's utility process:
// sandbox-utility.ts). Both run the same bundle (sandboxBundle.ts); this file is what they share:
// waiting for the ready line, stopping, and supervision.

/** The Sandbox's process, whichever API started it. */
export interface SandboxChild {
  readonly pid: number | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  exited(): boolean;
  /** Called once when the process ends (the signal is null where the API does not report one). */
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  kill(signal?: NodeJS.Signals): boolean;
}

/** Starts the Sandbox's bundle with these command-line arguments. */
export type SandboxSpawner = (args: string[]) => SandboxChild;

export interface SandboxProcess {
  baseUrl: string;
  credentialsPath: string;
  child: SandboxChild;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  dataDir: string;
  port?: number;
  extraArgs?: string[];
  timeoutMs?: number;
  /** Lines the Sandbox prints besides the ready line (default: dropped). */
  onOutput?: (line: string) => void;
}

const READY = /^Sandbox listening on (\S+)$/;

export function launchWith(spawn: SandboxSpawner, opts: LaunchOptions): Promise<SandboxProcess> {
  const child = spawn(['--port', String(opts.port ?? 0), '--data', opts.dataDir, ...(opts.extraArgs ?? [])]);
  const stderr: string[] = [];
  createInterface({ input: child.stderr }).on('line', (l) => {
    stderr.push(l);
    opts.onOutput?.(l);
  });

  return new Promise((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the Sandbox did not start within ${opts.timeoutMs ?? 30000} ms:\n${stderr.join('\n')}`));
    }, opts.timeoutMs ?? 30_000);
    child.onExit((code) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`the Sandbox exited with code ${code} before it was ready:\n${stderr.join('\n')}`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = READY.exec(line);
      if (!m) return opts.onOutput?.(line);
      ready = true;
      clearTimeout(timer);
      const exit = new Promise<void>((done) => child.onExit(() => done()));
      resolve({
        baseUrl: m[1]!,
        credentialsPath: join(opts.dataDir, 'credentials.json'),
        child,
        stop: () => {
          if (!child.exited()) child.kill('SIGTERM');
          return exit;
        },
      });
    });
  });
}

export interface SupervisedSandbox {
  baseUrl: string;
  credentialsPath: string;
  /** The Sandbox process running now (a new one after each restart). */
  current(): SandboxChild;
  /** How many times it was restarted. */
  restarts(): number;
  /** Stops it for good: no restart follows. */
  stop(): Promise<void>;
}

export interface SuperviseOptions extends LaunchOptions {
  /** The Sandbox stopped without being asked to; a restart follows. */
  onDown?: (how: { code: number | null; signal: NodeJS.Signals | null }) => void;
  /** It is back, on the same port with the same data folder. */
  onRestarted?: (sandbox: SandboxProcess) => void;
  /** It kept dying: the supervisor stopped restarting it. */
  onGiveUp?: (error: Error) => void;
  /** Restarts allowed within a minute before giving up (default 5). */
  maxRestartsPerMinute?: number;
}

/**
 * The Sandbox under supervision: when its process dies (a crash, a kill) it is started again on the
 * same port and data folder, so its world and every base address the desk holds stay valid. A Ctrl-C
 * reaches the Sandbox too (same process group): a child stopped by SIGINT is not restarted.
 */
export async function superviseWith(spawn: SandboxSpawner, opts: SuperviseOptions): Promise<SupervisedSandbox> {
  let sandbox = await launchWith(spawn, opts);
  const port = Number(new URL(sandbox.baseUrl).port);
  let stopping = false;
  let restarts = 0;
  const recent: number[] = [];
  const limit = opts.maxRestartsPerMinute ?? 5;

  const watch = (s: SandboxProcess) => {
    s.child.onExit((code, signal) => {
      if (stopping || signal === 'SIGINT') return;
      opts.onDown?.({ code, signal });
      void restart();
    });
  };
  const restart = async (): Promise<void> => {
    for (let attempt = 0; !stopping; attempt++) {
      const now = Date.now();
      while (recent.length && now - recent[0]! > 60_000) recent.shift();
      if (recent.length >= limit) {
        opts.onGiveUp?.(new Error(`the Sandbox stopped ${recent.length} times within a minute`));
        return;
      }
      recent.push(now);
      try {
        sandbox = await launchWith(spawn, { ...opts, port });
        if (stopping) return void sandbox.stop();
        restarts++;
        watch(sandbox);
        opts.onRestarted?.(sandbox);
        return;
      } catch (e) {
        // The old port may linger a moment after a kill: wait a little longer each time.
        if (attempt + 1 >= limit) return opts.onGiveUp?.(e as Error);
        await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      }
    }
  };
  watch(sandbox);

  return {
    baseUrl: sandbox.baseUrl,
    credentialsPath: sandbox.credentialsPath,
    current: () => sandbox.child,
    restarts: () => restarts,
    stop: () => {
      stopping = true;
      return sandbox.stop();
    },
  };
}
