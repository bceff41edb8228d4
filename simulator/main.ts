import { parseArgs } from 'node:util';
import { startSandbox, WorldMismatch, type RunningSandbox } from './app.ts';
import type { SandboxOptions } from './options.ts';

const USAGE = `usage: npm run sandbox -- --port <p> --data <dir> [--world demo|bench] [--no-limits] [--speed <x>]
                           [--refuse-duplicate-withdrawals] [--host 127.0.0.1]
  --port 0 picks a free port; see simulator/README.md`;

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parse() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        data: { type: 'string' },
        world: { type: 'string', default: 'demo' },
        'no-limits': { type: 'boolean', default: false },
        speed: { type: 'string', default: '1' },
        'refuse-duplicate-withdrawals': { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  const port = /^\d+$/.test(values.port) ? Number(values.port) : NaN;
  if (!Number.isInteger(port) || port > 65535) fail(`--port must be 0 to 65535, got ${values.port}`);
  if (!values.data) fail('--data <dir> is required');
  if (!['127.0.0.1', '::1', 'localhost'].includes(values.host)) fail('--host must be a loopback address (127.0.0.1, ::1 or localhost)');
  if (values.world !== 'demo' && values.world !== 'bench') fail(`--world must be demo or bench, got ${values.world}`);
  const speed = /^\d+(\.\d+)?$/.test(values.speed) ? Number(values.speed) : NaN;
  if (!Number.isFinite(speed) || speed > 10_000) fail(`--speed must be a number from 0 (frozen) to 10000, got ${values.speed}`);
  const options: SandboxOptions = {
    world: values.world,
    noLimits: values['no-limits'],
    speed,
    refuseDuplicateWithdrawals: values['refuse-duplicate-withdrawals'],
  };
  return { port, host: values.host, dataDir: values.data, options };
}

async function main(): Promise<void> {
  const config = parse();
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox(config);
  } catch (e) {
    if (e instanceof WorldMismatch) fail(e.message);
    const code = (e as { code?: string }).code;
    if (code === 'EADDRINUSE') fail(`port ${config.port} is in use`);
    throw e;
  }
  process.stdout.write(`Sandbox listening on ${sandbox.baseUrl}\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void sandbox.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started as a child with an IPC channel: its parent going away stops it too.
  process.on('disconnect', stop);
}

void main().catch((e: unknown) => {
  process.stderr.write(`sandbox: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
