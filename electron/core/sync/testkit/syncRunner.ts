import { ApiClient } from '../../client/client.ts';
import { HistoryCache } from '../historyCache.ts';
import { crashWorld } from './crashWorld.ts';

// Run as a child process by crash.test.ts: a cold sync into <dir> that tells its parent after every
// committed window, against an exchange slow enough that the parent can kill it mid-sync.

const dir = process.argv[2]!;
const ex = crashWorld();
const slow: typeof fetch = async (input, init) => {
  await new Promise((r) => setTimeout(r, 15));
  return ex.fetch(input, init);
};
const client = new ApiClient({
  baseUrl: 'https://exchange.test/api/v4',
  credentials: { key: 'k', secret: 's' },
  fetch: slow,
  limitsOff: true,
});
const cache = new HistoryCache({
  client,
  dir,
  nowSec: () => ex.now,
  kinds: ['withdrawals', 'deposits'],
  onWindowCommitted: (kind, to) => process.stdout.write(`committed ${kind} ${to}\n`),
});
await cache.sync();
process.stdout.write('finished\n');
