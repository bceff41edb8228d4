import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build, ROOT, start, stopAll, type Spec } from './load.ts';

// bench/sandbox.ts sends the bare fastify route the very request it sends the Sandbox (docs/benchmarks.md §sandbox): the
// signed GET's path, with its KEY, Timestamp and SIGN headers. The bare server must answer it with the
// Sandbox's body, or the comparison would not run.

const dir = mkdtempSync(join(tmpdir(), 'bench-bare-'));
afterAll(() => {
  stopAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('the bare reference server', () => {
  it("answers the Sandbox's signed request with the Sandbox's body", async () => {
    const body = { details: { spot: { currency: 'USDT', amount: '12.5' } }, total: { currency: 'USDT', amount: '12.5' } };
    const bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, JSON.stringify(body));
    const prefix = '/api/v4';
    const spec: Spec = { method: 'GET', path: '/wallet/total_balance', key: { uid: '1', key: 'k'.repeat(32), secret: 's'.repeat(64) } };
    const bare = await start([join(ROOT, 'bench', 'bare-server.ts')], /^bare listening on (\S+)$/, {
      BARE_BODY_FILE: bodyFile,
      BARE_PATH: `${prefix}${spec.path}`,
    });
    const [req] = build(prefix, [spec]);
    const res = await fetch(`${bare.url}${req!.path}`, { headers: req!.headers as Record<string, string> });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(body);
  });
});
