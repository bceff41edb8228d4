import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openDesk } from '../desk.ts';

// Run in a child process by secretHeap.test.ts: opens the desk's data folder, unlocks, makes one signed
// read, locks, forces collection and writes a heap snapshot. This process never receives the secret
// other than by decrypting it, so any copy in its heap came from the desk's own handling.
// Usage: node --expose-gc --import tsx heapProbe.ts <home> <passphrase> <snapshot path>

const [home, passphrase, out] = process.argv.slice(2) as [string, string, string];
setFlagsFromString('--expose-gc');
const gc = (globalThis.gc ?? runInNewContext('gc')) as () => void;

const core = openDesk({ home, log: () => {} });
const unlocked = await core.invoke('vaultUnlock', { passphrase });
const read = await core.invoke('totalBalance', {});
const locked = await core.invoke('vaultLock', {});
// Let pending promise jobs and timers of the finished request settle before collecting.
await new Promise((r) => setTimeout(r, 50));
for (let i = 0; i < 4; i++) gc();
const file = writeHeapSnapshot(out);
process.stdout.write(
  `${JSON.stringify({ unlocked: unlocked.ok, read: read.ok ? 'ok' : read.error.kind, locked: locked.ok, file, pid: process.pid })}\n`,
);
// The parent may now read this process's memory; it closes stdin when done.
process.stdin.resume();
await new Promise((r) => process.stdin.on('end', r));
await core.close();
