import { spawn } from 'node:child_process';
import { ensureSandboxBundle } from './sandboxBundle.ts';
import {
  launchWith,
  superviseWith,
  type LaunchOptions,
  type SandboxChild,
  type SandboxProcess,
  type SandboxSpawner,
  type SupervisedSandbox,
  type SuperviseOptions,
} from './sandbox-process.ts';

// The Sandbox under Node: `npm start` (web host or Electron's window), the tests and the benchmarks run
// its bundle with Node itself. The bundle is built again first when a source of the Sandbox changed.

export type { SandboxProcess, SupervisedSandbox };

interface RootOption {
  /** Where the project lives (the folder holding simulator/ and dist/). */
  root: string;
}

async function nodeSpawner(root: string): Promise<SandboxSpawner> {
  const bundle = await ensureSandboxBundle(root);
  return (args) => {
    // An IPC channel, so that the Sandbox stops when its parent goes away however that happens.
    const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], cwd: root });
    const adapted: SandboxChild = {
      pid: child.pid,
      stdout: child.stdout!,
      stderr: child.stderr!,
      exited: () => child.exitCode !== null || child.signalCode !== null,
      onExit: (listener) => {
        if (adapted.exited()) listener(child.exitCode, child.signalCode);
        else child.once('exit', listener);
      },
      kill: (signal) => child.kill(signal),
    };
    return adapted;
  };
}

export async function launchSandbox(opts: LaunchOptions & RootOption): Promise<SandboxProcess> {
  return launchWith(await nodeSpawner(opts.root), opts);
}

/**
 * The Sandbox under supervision: when its process dies (a crash, a kill) it is started again on the
 * same port and data folder (sandbox-process.ts). A Ctrl-C reaches the Sandbox too (same process group):
 * a child stopped by SIGINT is not restarted.
 */
export async function superviseSandbox(opts: SuperviseOptions & RootOption): Promise<SupervisedSandbox> {
  return superviseWith(await nodeSpawner(opts.root), opts);
}
