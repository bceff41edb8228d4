import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getMeta, openDb, setMeta } from './db.ts';
import { walletRoutes } from './routes/wallet.ts';
import { API_PREFIX, buildServer } from './server.ts';
import { seedDemo, type SeedResult } from './world.ts';

const USAGE = 'usage: npm run sandbox -- --port <p> --data <dir>   (--port 0 picks a free port)';

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function options() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        data: { type: 'string' },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0 to 65535, got ${values.port}`);
  if (!values.data) fail('--data <dir> is required');
  if (!['127.0.0.1', '::1', 'localhost'].includes(values.host!)) fail('--host must be a loopback address');
  return { port, host: values.host!, data: values.data };
}

async function main(): Promise<void> {
  const opts = options();
  const db = openDb(opts.data);
  const nowSec = () => Date.now() / 1000;

  let seed: SeedResult;
  const stored = getMeta(db, 'credentials');
  if (stored) {
    seed = JSON.parse(stored) as SeedResult;
  } else {
    seed = seedDemo(db, Math.floor(nowSec()));
    setMeta(db, 'credentials', JSON.stringify(seed));
  }

  const app = buildServer({ db, routes: [...walletRoutes], clock: nowSec });
  const address = await app.listen({ port: opts.port, host: opts.host });
  const baseUrl = `${address}${API_PREFIX}`;

  const credentialsPath = join(opts.data, 'credentials.json');
  // Sandbox keys guard play money on loopback: the one place a key is kept in clear (DESIGN.md).
  writeFileSync(credentialsPath, `${JSON.stringify({
    base_url: baseUrl,
    main: seed.main,
    read_only: seed.readOnly,
    sub_accounts: seed.subAccounts,
  }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(credentialsPath, 0o600);
  process.stdout.write(`Sandbox listening on ${baseUrl}\n`);

  const stop = () => {
    void app.close().finally(() => {
      db.close();
      process.exit(0);
    });
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
