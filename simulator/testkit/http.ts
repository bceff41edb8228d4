import { createHash, createHmac } from 'node:crypto';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../app.ts';
import { DEFAULT_OPTIONS, type SandboxOptions } from '../options.ts';
import type { RouteDef } from '../server.ts';

// The tests' own HTTP client and signer for the Sandbox, written apart from simulator/auth.ts (and from
// the desk's client), so that a test checks the server against an independent reading of §5.7.

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RawRequest {
  method: string;
  /** Full path with query, as sent on the request line. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Source address on loopback (127.0.0.2 and up). */
  localAddress?: string;
  timeoutMs?: number;
}

export function send(baseUrl: string, r: RawRequest): Promise<Reply> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers = { ...r.headers };
    if (r.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(r.body));
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method: r.method,
        path: r.path,
        headers,
        localAddress: r.localAddress,
        agent: false,
        timeout: r.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

export interface Key {
  key: string;
  secret: string;
}

export interface SignedCall {
  method: string;
  /** Path below /api/v4. */
  path: string;
  /** Query exactly as sent (percent-encoded when needed). */
  query?: string;
  /** What the signature covers; the decoded query by default (§5.7). */
  signedQuery?: string;
  body?: string;
  timestamp?: string;
  contentType?: string;
  localAddress?: string;
  extraHeaders?: Record<string, string>;
  timeoutMs?: number;
}

export function sign(secret: string, method: string, fullPath: string, query: string, body: string, ts: string): string {
  const payload = [method, fullPath, query, createHash('sha512').update(body).digest('hex'), ts].join('\n');
  return createHmac('sha512', secret).update(payload).digest('hex');
}

export function signed(baseUrl: string, k: Key, c: SignedCall): Promise<Reply> {
  const prefix = new URL(baseUrl).pathname;
  const fullPath = `${prefix}${c.path}`;
  const query = c.query ?? '';
  const body = c.body ?? '';
  const ts = c.timestamp ?? String(Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    KEY: k.key,
    Timestamp: ts,
    SIGN: sign(k.secret, c.method, fullPath, c.signedQuery ?? decodeURIComponent(query), body, ts),
    ...c.extraHeaders,
  };
  if (body) headers['Content-Type'] = c.contentType ?? 'application/json';
  return send(baseUrl, {
    method: c.method,
    path: `${fullPath}${query ? `?${query}` : ''}`,
    headers,
    body: body || undefined,
    localAddress: c.localAddress,
    timeoutMs: c.timeoutMs,
  });
}

export async function admin(
  s: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
  token = s.credentials.admin_token,
): Promise<Reply> {
  return send(s.baseUrl, {
    method,
    path: `${new URL(s.adminUrl).pathname}${path}`,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export interface TestSandbox extends RunningSandbox {
  /** Closes the server and removes its data folder. */
  dispose(): Promise<void>;
}

export async function startTestSandbox(options: Partial<SandboxOptions> = {}, routes?: RouteDef[]): Promise<TestSandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-platform-'));
  const s = await startSandbox({ dataDir, port: 0, host: '127.0.0.1', options: { ...DEFAULT_OPTIONS, ...options }, routes });
  return Object.assign(s, {
    async dispose() {
      await s.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
