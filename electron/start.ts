import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Core } from './core/core.ts';
import { coolingOffFromEnv, openDesk } from './core/desk.ts';
import { electronSqliteBinding } from './electron-native.ts';
import { deskHome, deskStateDir } from './core/paths.ts';
import { startConfirmHost } from './host/confirm-web.ts';
import { startWebHost } from './host/web.ts';
import { superviseSandbox } from './sandbox-launcher.ts';

// `npm start`: the Sandbox as a supervised child process, then the desk in Electron where its binary
// can run, otherwise the same app through the web host on 127.0.0.1. `npm start` runs it built
// (dist/start/start.mjs, electron/build.ts); run from its source it works the same.

/** The project's folder: the nearest above this file that holds package.json (electron/ or dist/start/). */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const root = projectRoot(import.meta.dirname);

/** Why Electron cannot run here, or null when it can; asking for its path fetches the binary on first run. */
function electronUnavailable(): { reason: string } | { binary: string } {
  if (process.env.TREASURY_DESK_WEB === '1') return { reason: 'TREASURY_DESK_WEB=1 asks for the web host' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  }
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: root,
    encoding: 'utf8',
    timeout: 180_000,
  });
  const binary = probe.stdout?.trim();
  if (probe.status === 0 && binary && existsSync(binary)) return { binary };
  return { reason: 'the Electron binary is not installed and could not be downloaded' };
}

const say = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const home = deskHome();
  let core: Core | null = null;
  let app: ChildProcess | null = null;
  const tell = (state: 'down' | 'restarted') => {
    core?.reportSandbox?.(state);
    // The Electron app holds its own core: it hears of the Sandbox over its IPC channel.
    if (app?.connected) app.send({ sandbox: state });
  };
  const shutdown: Array<() => Promise<void>> = [];
  let exiting = false;
  const exit = (code: number) => {
    if (exiting) return;
    exiting = true;
    void Promise.allSettled(shutdown.map((f) => f())).then(() => process.exit(code));
  };

  const sandbox = await superviseSandbox({
    root,
    dataDir: join(home, 'sandbox'),
    onOutput: (l) => say(`[sandbox] ${l}`),
    onDown: ({ code, signal }) => {
      say(`The Sandbox stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); restarting it with the same data.`);
      tell('down');
    },
    onRestarted: (s) => {
      say(`The Sandbox was restarted on ${s.baseUrl}; the desk goes on.`);
      tell('restarted');
    },
    onGiveUp: (e) => {
      say(`The Sandbox could not be kept running (${e.message}); stopping the desk.`);
      exit(1);
    },
  });
  shutdown.push(() => sandbox.stop());
  const interrupted = (signal: string) => () => {
    say(signal === 'SIGINT' ? 'Ctrl-C: stopping the desk and the Sandbox.' : `${signal}: stopping the desk and the Sandbox.`);
    exit(0);
  };
  process.on('SIGINT', interrupted('SIGINT'));
  process.on('SIGTERM', interrupted('SIGTERM'));

  const electron = electronUnavailable();
  if ('binary' in electron) {
    const version = spawnSync(electron.binary, ['--version'], { encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } })
      .stdout.trim()
      .replace(/^v/, '');
    const binding = await electronSqliteBinding(root, version);
    app = spawn(electron.binary, [root], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        TREASURY_DESK_HOME: home,
        TREASURY_DESK_SANDBOX_CREDENTIALS: sandbox.credentialsPath,
        TREASURY_DESK_SQLITE_BINDING: binding,
      },
    });
    const child = app;
    shutdown.push(async () => void child.kill('SIGTERM'));
    child.once('exit', (code) => exit(code ?? 0));
    return;
  }

  const opened = openDesk({
    home,
    stateDir: deskStateDir(home),
    sandboxCredentialsPath: sandbox.credentialsPath,
    coolingOffMs: coolingOffFromEnv(),
  });
  core = opened;
  const host = await startWebHost({ core: opened, staticDir: join(root, 'dist', 'renderer'), portFile: join(home, 'web-port') });
  const confirm = await startConfirmHost({ core: opened, staticDir: join(root, 'dist', 'renderer') });
  shutdown.unshift(
    () => host.close(),
    () => confirm.close(),
    () => opened.close(),
  );
  process.stdout.write(`Treasury Desk: ${host.url}\n`);
  process.stdout.write(`Confirmation page (operators type passphrases and sign only here; keep it open in its own tab): ${confirm.url}\n`);
  process.stdout.write(`Electron was not started: ${electron.reason}; serving the app on 127.0.0.1 instead (Ctrl-C stops it).\n`);
}

void main().catch((e: unknown) => {
  process.stderr.write(`Treasury Desk could not start: ${(e as Error).message}\n`);
  process.exit(1);
});
