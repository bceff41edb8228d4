import type { SandboxCredentials } from '../shared/sandbox.ts';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { controlAdminRoutes } from './admin/control.ts';
import { ledgerAdminRoutes } from './admin/ledger.ts';
import { marginAdminRoutes } from './admin/margin.ts';
import { marketAdminRoutes } from './admin/market.ts';
import { ADMIN_PREFIX, mountAdmin } from './admin/server.ts';
import { KeyStore } from './auth.ts';
import { Clock } from './clock.ts';
import { commitBatch, getMeta, openDb, setMeta, type DB } from './db.ts';
import { Faults } from './faults.ts';
import { startLifecycle } from './lifecycle.ts';
import { RateLimiter } from './limits.ts';
import type { SandboxOptions } from './options.ts';
import { allRoutes } from './routes/index.ts';
import { API_PREFIX, buildServer, type RouteDef } from './server.ts';
import { seedWorld, type SeedResult } from './world.ts';

// One running Sandbox: its store, clock, limits, faults, REST and admin routes, and credentials.json.
// main.ts runs it from the command line; tests start it in-process on a free port.

export interface SandboxConfig {
  dataDir: string;
  port: number;
  host: string;
  options: SandboxOptions;
  /** Replaces the REST routes (tests of the platform alone); every other part stays as in production. */
  routes?: RouteDef[];
}

export type Credentials = SandboxCredentials;

export interface RunningSandbox {
  baseUrl: string;
  adminUrl: string;
  credentials: Credentials;
  credentialsPath: string;
  app: FastifyInstance;
  db: DB;
  clock: Clock;
  limiter: RateLimiter;
  faults: Faults;
  keys: KeyStore;
  close(): Promise<void>;
}

export class WorldMismatch extends Error {}

function seedOnce(db: DB, config: SandboxConfig, nowSec: number): SeedResult {
  const stored = getMeta(db, 'credentials');
  if (stored) {
    const world = getMeta(db, 'world');
    if (world && world !== config.options.world) {
      throw new WorldMismatch(`${config.dataDir} holds the ${world} world; start with --world ${world} or use another --data folder`);
    }
    return JSON.parse(stored) as SeedResult;
  }
  const seed = seedWorld(db, config.options.world, nowSec, config.options.seed, config.options.speed);
  setMeta(db, 'world', config.options.world);
  setMeta(db, 'credentials', JSON.stringify(seed));
  return seed;
}

export async function startSandbox(config: SandboxConfig): Promise<RunningSandbox> {
  const db = openDb(config.dataDir);
  try {
    const clock = new Clock();
    // An advanced clock survives a restart with the records it produced.
    const offset = Number(getMeta(db, 'clock_offset') ?? '0');
    if (Number.isFinite(offset) && offset > 0) clock.advance(offset);

    const seed = seedOnce(db, config, clock.now());
    let adminToken = getMeta(db, 'admin_token');
    if (!adminToken) {
      adminToken = randomBytes(24).toString('hex');
      setMeta(db, 'admin_token', adminToken);
    }

    const keys = new KeyStore(db);
    const limiter = new RateLimiter(() => clock.now() * 1000, !config.options.noLimits);
    const faults = new Faults();
    const app = buildServer({ db, routes: config.routes ?? allRoutes({ clock, options: config.options }), clock, limiter, faults, keys });
    mountAdmin(app, {
      db,
      clock,
      options: config.options,
      token: adminToken,
      routes: [...ledgerAdminRoutes, ...marketAdminRoutes, ...marginAdminRoutes, ...controlAdminRoutes({ keys, faults, limiter })],
      onChange: () => keys.invalidate(),
    });
    const stopLifecycle = startLifecycle(db, clock, config.options);

    let address: string;
    try {
      address = await app.listen({ port: config.port, host: config.host });
    } catch (e) {
      stopLifecycle();
      throw e;
    }
    const baseUrl = `${address}${API_PREFIX}`;
    const adminUrl = `${address}${ADMIN_PREFIX}`;
    const credentials: Credentials = {
      base_url: baseUrl,
      admin_url: adminUrl,
      admin_token: adminToken,
      main: seed.main,
      read_only: seed.readOnly,
      sub_accounts: seed.subAccounts,
    };
    // Sandbox keys guard play money on loopback: the one place a key is kept in clear (docs/architecture.md §Persistence).
    // Rewritten on every start, since the port may change; the keys and token come from the store.
    const credentialsPath = join(config.dataDir, 'credentials.json');
    writeFileSync(credentialsPath, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    chmodSync(credentialsPath, 0o600);

    let closed = false;
    return {
      baseUrl,
      adminUrl,
      credentials,
      credentialsPath,
      app,
      db,
      clock,
      limiter,
      faults,
      keys,
      async close() {
        if (closed) return;
        closed = true;
        stopLifecycle();
        // Answers waiting for a commit leave before the connections close; what arrives meanwhile commits after.
        commitBatch(db);
        await app.close();
        commitBatch(db);
        db.close();
      },
    };
  } catch (e) {
    db.close();
    throw e;
  }
}
