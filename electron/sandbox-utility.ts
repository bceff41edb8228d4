import type { Readable } from 'node:stream';
import type { SandboxChild, SandboxSpawner } from './sandbox-process.ts';

// The Sandbox in a packaged app (docs/packaging.md): the same bundle `npm start` runs under Node, started with
// Electron's utilityProcess. A packaged app's binary cannot run as plain Node (its runAsNode fuse is
// off), and a utility process needs no such fuse: it is a Node environment Electron starts and stops.

/** The part of Electron's utilityProcess this uses (typed here so that a test can stand in for it). */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  kill(): boolean;
  once(event: 'exit', listener: (code: number) => void): unknown;
}

export interface UtilityForkLike {
  fork(
    modulePath: string,
    args: string[],
    options: { stdio: 'pipe'; serviceName: string; env: Record<string, string | undefined> },
  ): UtilityProcessLike;
}

export function utilitySpawner(utility: UtilityForkLike, bundle: string, env: Record<string, string | undefined>): SandboxSpawner {
  return (args) => {
    const child = utility.fork(bundle, args, { stdio: 'pipe', serviceName: 'Treasury Desk Sandbox', env });
    let exited = false;
    const listeners: Array<(code: number | null, signal: NodeJS.Signals | null) => void> = [];
    let exitCode: number | null = null;
    child.once('exit', (code) => {
      exited = true;
      exitCode = code;
      // A utility process reports no signal: a stop the desk asked for is known by its own flag.
      for (const l of listeners.splice(0)) l(code, null);
    });
    return {
      pid: child.pid,
      stdout: child.stdout!,
      stderr: child.stderr!,
      exited: () => exited,
      onExit: (listener) => {
        if (exited) listener(exitCode, null);
        else listeners.push(listener);
      },
      // utilityProcess.kill() ends the process (SIGTERM on POSIX, TerminateProcess on Windows); the Sandbox
      // closes its database on SIGTERM. There is no other signal to choose.
      kill: () => child.kill(),
    } satisfies SandboxChild;
  };
}
