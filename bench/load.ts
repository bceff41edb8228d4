import autocannon, { type Client, type Request as AcRequest, type Result } from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// What the HTTP benchmarks share: child processes (the Sandbox, a bare server) and autocannon load with
// signed requests that are re-signed once a second (timestamps must stay within 60 s of the server).

export const ROOT = join(import.meta.dirname, '..');
const TSX = createRequire(join(ROOT, 'package.json')).resolve('tsx');

export interface KeyPair {
  uid: string;
  key: string;
  secret: string;
}
export interface Creds {
  base_url: string;
  main: KeyPair;
  sub_accounts: KeyPair[];
}

const children: ChildProcess[] = [];

export function start(args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', TSX, ...args], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = ready.exec(line);
      if (m) resolve({ child, url: m[1]! });
    });
  });
}

export function stopAll(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
}

const EMPTY_HASH = createHash('sha512').update('').digest('hex');

export function signedHeaders(k: KeyPair, method: string, fullPath: string, query: string, body: string): Record<string, string> {
  const ts = String(Math.floor(Date.now() / 1000));
  const bodyHash = body ? createHash('sha512').update(body).digest('hex') : EMPTY_HASH;
  const sign = createHmac('sha512', k.secret).update(`${method}\n${fullPath}\n${query}\n${bodyHash}\n${ts}`).digest('hex');
  return { KEY: k.key, Timestamp: ts, SIGN: sign, Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) };
}

export interface Spec {
  method: 'GET' | 'POST';
  path: string;
  query?: string;
  body?: string;
  key: KeyPair;
}

export function build(prefix: string, specs: Spec[]): AcRequest[] {
  return specs.map((s) => {
    const fullPath = `${prefix}${s.path}`;
    return {
      method: s.method,
      path: `${fullPath}${s.query ? `?${s.query}` : ''}`,
      headers: signedHeaders(s.key, s.method, fullPath, s.query ?? '', s.body ?? ''),
      ...(s.body ? { body: s.body } : {}),
    };
  });
}

/** Runs autocannon; every connection's requests are re-signed once a second. */
export function load(
  url: string,
  opts: { connections: number; duration: number; specs?: Spec[]; prefix?: string; path?: string },
): Promise<Result> {
  const clients = new Set<Client>();
  const resign = opts.specs
    ? setInterval(() => {
        const reqs = build(opts.prefix!, opts.specs!);
        for (const c of clients) c.setRequests(reqs);
      }, 1000)
    : undefined;
  return new Promise((resolve, reject) => {
    const requests = opts.specs ? build(opts.prefix!, opts.specs) : undefined;
    const inst = autocannon(
      {
        url,
        connections: opts.connections,
        duration: opts.duration,
        ...(requests ? { requests } : { requests: [{ method: 'GET', path: opts.path! }] }),
        setupClient: (c: Client) => {
          clients.add(c);
        },
      },
      (err: Error | null, result: Result) => {
        if (resign) clearInterval(resign);
        if (err) reject(err);
        else resolve(result);
      },
    );
    inst.on('error', reject);
  });
}

export function statusSummary(r: Result): string {
  return `2xx ${r['2xx']}, non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}`;
}
