import Fastify from 'fastify';

// The reference for bench/sandbox.ts: fastify with one JSON route and nothing else, in a process of
// its own like the Sandbox, so that the two are measured under the same conditions.

const app = Fastify({ logger: false });
const payload = { total: { amount: '1234567.89', currency: 'USDT' } };
app.get('/bare', async () => payload);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`bare listening on ${address}\n`);
process.on('disconnect', () => { void app.close().finally(() => process.exit(0)); });
process.on('SIGTERM', () => { void app.close().finally(() => process.exit(0)); });
