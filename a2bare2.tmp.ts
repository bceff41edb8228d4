import Fastify from 'fastify';
const app = Fastify({ logger: false });
const payload = JSON.parse('{"total":{"amount":"1234567.89","currency":"USDT","unrealised_pnl":"1.2","borrowed":"3.4"},"details":{"spot":{"amount":"123456.12345678","currency":"USDT"},"margin":{"amount":"123456.12345678","currency":"USDT","borrowed":"12.3"},"futures":{"amount":"123456.12345678","currency":"USDT","unrealised_pnl":"1.2"},"cross_margin":{"amount":"123456.12345678","currency":"USDT","borrowed":"1"},"delivery":{"amount":"123456.12345678","currency":"USDT","unrealised_pnl":"0"},"options":{"amount":"123456.12345678","currency":"USDT","unrealised_pnl":"0"},"finance":{"amount":"123456.12345678","currency":"USDT"}}}');
app.get('/bare', async (_req, reply) => {
  if (process.env.HDRS) for (const h of ['X-In-Time', 'X-Svc-Trace-ID', 'X-Svc-RateLimit-Requests-Remain', 'X-Svc-RateLimit-Limit', 'X-Svc-RateLimit-Reset-Timestamp', 'X-Out-Time']) reply.header(h, '1795351505407845');
  return process.env.BIG ? payload : { ok: 1 };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`bare listening on ${address}\n`);
