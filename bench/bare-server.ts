import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

// The reference for bench/sandbox.ts: fastify with plain JSON routes and nothing else, in a process of
// its own like the Sandbox, so that the two are measured under the same conditions. GET /same answers
// the body the Sandbox gave for the measured request (BARE_BODY_FILE), so that the comparison isolates
// what the Sandbox adds (signature, key lookup, limits, headers, handler); GET /tiny answers a few bytes.
// BARE_PATH (the measured request's path, /api/v4/...) answers that body too: the bench sends it the
// very request it sends the Sandbox, signature headers included, which this route ignores.

const same: unknown = process.env.BARE_BODY_FILE ? JSON.parse(readFileSync(process.env.BARE_BODY_FILE, 'utf8')) : { ok: true };
const tiny = { ok: true };
const app = Fastify({ logger: false });
app.get('/same', async () => same);
app.get('/tiny', async () => tiny);
if (process.env.BARE_PATH) app.get(process.env.BARE_PATH, async () => same);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`bare listening on ${address}\n`);
process.on('disconnect', () => {
  void app.close().finally(() => process.exit(0));
});
process.on('SIGTERM', () => {
  void app.close().finally(() => process.exit(0));
});
