import { mkdtempSync } from 'node:fs';
import { createHash, createHmac } from 'node:crypto';
import { openDb } from './simulator/db.ts';
import { seedWorld } from './simulator/world.ts';
import { authenticate, KeyStore } from './simulator/auth.ts';
import { totalBalance } from './simulator/valuation.ts';
const db = openDb(mkdtempSync('/tmp/a2m-'));
const seed = seedWorld(db, 'demo', Date.now() / 1000);
const keys = new KeyStore(db);
const ts = String(Math.floor(Date.now() / 1000));
const p = '/api/v4/wallet/total_balance';
const sign = createHmac('sha512', seed.main.secret).update(`GET\n${p}\n\n${createHash('sha512').update('').digest('hex')}\n${ts}`).digest('hex');
const req = { method: 'GET', path: p, rawQuery: '', body: Buffer.alloc(0), headers: { key: seed.main.key, timestamp: ts, sign }, ip: '127.0.0.1', nowSec: Date.now() / 1000 };
function bench(name: string, f: () => unknown, n = 50000) { for (let i = 0; i < 2000; i++) f(); const t = performance.now(); for (let i = 0; i < n; i++) f(); console.log(name, ((performance.now() - t) * 1000 / n).toFixed(2), 'µs'); }
bench('authenticate', () => authenticate(keys, req));
bench('hmac only', () => createHmac('sha512', seed.main.secret).update('GET\n/x\n\nabc\n123').digest('hex'));
const tb = totalBalance(db, seed.main.uid, 'USDT');
bench('stringify total', () => JSON.stringify(tb));
console.log(JSON.stringify(tb).length);
