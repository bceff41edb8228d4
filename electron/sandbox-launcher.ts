import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// The desk runs the Sandbox as a child process and reaches it over HTTP only, as it would a real
// exchange. (A packaged app would use Electron's utilityProcess; see README.)

export interface SandboxProcess {
  baseUrl: string;
  credentialsPath: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  dataDir: string;
  port?: number;
  extraArgs?: string[];
  /** Where the project lives (the folder holding simulator/). */
  root: string;
  timeoutMs?: number;
  /** Lines the Sandbox prints besides the ready line (default: dropped). */
  onOutput?: (line: string) => void;
}

const READY = /^Sandbox listening on (\S+)$/;

export function launchSandbox(opts: LaunchOptions): Promise<SandboxProcess> {
  const tsxLoader = createRequire(join(opts.root, 'package.json')).resolve('tsx');
  const args = ['--import', tsxLoader, join(opts.root, 'simulator', 'main.ts'),
    '--port', String(opts.port ?? 0), '--data', opts.dataDir, ...(opts.extraArgs ?? [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], cwd: opts.root });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => {
    stderr.push(l);
    opts.onOutput?.(l);
  });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the Sandbox did not start within ${opts.timeoutMs ?? 30000} ms:\n${stderr.join('\n')}`));
    }, opts.timeoutMs ?? 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Sandbox exited with code ${code} before it was ready:\n${stderr.join('\n')}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = READY.exec(line);
      if (!m) return opts.onOutput?.(line);
      clearTimeout(timer);
      resolve({
        baseUrl: m[1]!,
        credentialsPath: join(opts.dataDir, 'credentials.json'),
        child,
        stop: () => new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    });
  });
}
