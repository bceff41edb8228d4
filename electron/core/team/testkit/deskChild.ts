import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// A team desk's core in a process of its own (teamDeskRunner.ts), for the tests that SIGKILL it mid-send.

const runner = join(import.meta.dirname, 'teamDeskRunner.ts');
const tsx = createRequire(import.meta.url).resolve('tsx');

export interface DeskChild {
  child: ChildProcess;
  /** Resolves with the signal that ended it. */
  exited: Promise<NodeJS.Signals | null>;
}

/** Starts the runner with `args` (its usage line) and answers once it has printed READY. */
export async function startDeskChild(args: string[]): Promise<DeskChild> {
  const child = spawn(process.execPath, ['--import', tsx, runner, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const err: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => err.push(l));
  const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_c, s) => r(s)));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => l === 'READY' && resolve());
    child.once('exit', () => reject(new Error(`the desk process exited: ${err.join('\n')}`)));
  });
  return { child, exited };
}
