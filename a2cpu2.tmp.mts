import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const tsx = new URL('./node_modules/tsx/dist/esm/index.mjs', import.meta.url).pathname;
function start(args: string[], re: RegExp): Promise<{ pid: number; url: string; kill: () => void }> {
  const c = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((res) => createInterface({ input: c.stdout! }).on('line', (l) => { const m = re.exec(l); if (m) res({ pid: c.pid!, url: m[1]!, kill: () => c.kill() }); }));
}
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
async function measure(name: string, url: string, pid: number, headers: Record<string, string>) {
  await autocannon({ url, connections: 50, duration: 2, headers });
  const c0 = cpu(pid);
  const r = await autocannon({ url, connections: 50, duration: 6, headers });
  const c1 = cpu(pid);
  console.log(name, 'rps', r.requests.average, 'p99', r.latency.p99, 'server cpu µs/req', ((c1 - c0) * 1000 / r.requests.total).toFixed(1), 'non2xx', r.non2xx);
}
const bare = await start([process.env.BARE ?? 'bench/bare-server.ts'], /^bare listening on (\S+)$/);
const dir = mkdtempSync('/tmp/a2cpu-');
const sbx = await start(['simulator/main.ts', '--port', '0', '--data', dir, '--no-limits'], /^Sandbox listening on (\S+)$/);
const creds = JSON.parse(readFileSync(`${dir}/credentials.json`, 'utf8'));
const ts = String(Math.floor(Date.now() / 1000));
const p = process.argv[2] ?? '/api/v4/wallet/total_balance';
const sign = createHmac('sha512', creds.main.secret).update(`GET\n${p}\n\n${createHash('sha512').update('').digest('hex')}\n${ts}`).digest('hex');
await measure('bare', bare.url + '/bare', bare.pid, {});
await measure('sandbox', new URL(sbx.url).origin + p, sbx.pid, { KEY: creds.main.key, Timestamp: ts, SIGN: sign });
await measure('sandbox-public', new URL(sbx.url).origin + '/api/v4/spot/time', sbx.pid, {});
bare.kill(); sbx.kill();
