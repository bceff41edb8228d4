import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { warmHttpClient } from './warmHttpClient.ts';

// The web host awaits the warm-up before it gives its address: a host that does not answer must not
// keep the desk from starting, nor fail it.

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

describe('warmHttpClient', () => {
  it('gives up on an address that accepts and never answers, without throwing', async () => {
    server = createServer((s) => void sockets.add(s));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await expect(warmHttpClient(`http://127.0.0.1:${port}`)).resolves.toBeUndefined();
  });

  it('does not throw where nothing listens', async () => {
    await expect(warmHttpClient('http://127.0.0.1:9')).resolves.toBeUndefined();
  });
});
