import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { coolingOffFromEnv, openDesk } from './core/desk.ts';
import { deskHome } from './core/paths.ts';
import { startWebHost } from './host/web.ts';
import { startConfirmHost } from './host/confirm-web.ts';
import { launchSandbox } from './sandbox-launcher.ts';

// `npm start`: the Sandbox as a child process, then the desk in Electron where its binary can run,
// otherwise the same app through the web host on 127.0.0.1.

const root = join(import.meta.dirname, '..');

/** Why Electron cannot run here, or null when it can; asking for its path fetches the binary on first run. */
function electronUnavailable(): { reason: string } | { binary: string } {
  if (process.env.TREASURY_DESK_WEB === '1') return { reason: 'TREASURY_DESK_WEB=1 asks for the web host' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  }
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: root, encoding: 'utf8', timeout: 180_000,
  });
  const binary = probe.stdout?.trim();
  if (probe.status === 0 && binary && existsSync(binary)) return { binary };
  return { reason: 'the Electron binary is not installed and could not be downloaded' };
}

async function main(): Promise<void> {
  const home = deskHome();
  const sandbox = await launchSandbox({ root, dataDir: join(home, 'sandbox'), onOutput: (l) => process.stderr.write(`[sandbox] ${l}\n`) });
  const shutdown: Array<() => Promise<void>> = [() => sandbox.stop()];
  const exit = (code: number) => {
    void Promise.allSettled(shutdown.map((f) => f())).then(() => process.exit(code));
  };
  process.on('SIGINT', () => exit(0));
  process.on('SIGTERM', () => exit(0));
  sandbox.child.once('exit', (code) => {
    process.stderr.write(`The Sandbox stopped (code ${code}); stopping the desk.\n`);
    exit(1);
  });

  const electron = electronUnavailable();
  if ('binary' in electron) {
    const app = spawn(electron.binary, [root], {
      stdio: 'inherit',
      env: { ...process.env, TREASURY_DESK_HOME: home, TREASURY_DESK_SANDBOX_CREDENTIALS: sandbox.credentialsPath },
    });
    shutdown.push(async () => void app.kill('SIGTERM'));
    app.once('exit', (code) => exit(code ?? 0));
    return;
  }

  const core = openDesk({ home, sandboxCredentialsPath: sandbox.credentialsPath, coolingOffMs: coolingOffFromEnv() });
  const host = await startWebHost({ core, staticDir: join(root, 'dist', 'renderer') });
  const confirm = await startConfirmHost({ core, staticDir: join(root, 'dist', 'renderer') });
  shutdown.unshift(() => host.close(), () => confirm.close(), () => core.close());
  process.stdout.write(`Treasury Desk: ${host.url}\n`);
  process.stdout.write(`Confirmation page (operators type passphrases and sign only here; keep it open in its own tab): ${confirm.url}\n`);
  process.stdout.write(`Electron was not started: ${electron.reason}; serving the app on 127.0.0.1 instead (Ctrl-C stops it).\n`);
}

void main().catch((e: unknown) => {
  process.stderr.write(`Treasury Desk could not start: ${(e as Error).message}\n`);
  process.exit(1);
});
