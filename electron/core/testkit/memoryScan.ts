import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';

// Reads another process's writable memory (Linux /proc/<pid>/mem; a parent may read its child's under
// the default ptrace policy) and counts where each needle occurs: freed but unwiped memory included,
// which a heap snapshot (live objects only) cannot show.

export function canScanMemory(pid: number): string | null {
  if (process.platform !== 'linux') return "reading another process's memory is done through /proc on Linux only";
  if (!existsSync(`/proc/${pid}/mem`)) return `/proc/${pid}/mem is absent`;
  return null;
}

export function countInMemory(pid: number, needles: Buffer[]): number[] {
  const longest = Math.max(...needles.map((n) => n.length));
  const counts = needles.map(() => 0);
  const chunk = Buffer.alloc(16 << 20);
  const fd = openSync(`/proc/${pid}/mem`, 'r');
  try {
    for (const line of readFileSync(`/proc/${pid}/maps`, 'utf8').trim().split('\n')) {
      const [range, perms] = line.split(/\s+/);
      if (!perms?.startsWith('rw')) continue;
      const [start, end] = range!.split('-').map((h) => parseInt(h, 16)) as [number, number];
      // Consecutive windows overlap by longest-1 bytes; a match is counted in the window where it starts.
      for (let at = start; at < end; at += chunk.length - (longest - 1)) {
        const want = Math.min(chunk.length, end - at);
        let got = 0;
        try {
          got = readSync(fd, chunk, 0, want, at);
        } catch {
          break; // a guard page or a region unmapped meanwhile
        }
        const view = chunk.subarray(0, got);
        const lastStart = got === want && at + got < end ? got - (longest - 1) : got;
        needles.forEach((needle, i) => {
          for (let k = view.indexOf(needle); k >= 0 && k < lastStart; k = view.indexOf(needle, k + 1)) counts[i]!++;
        });
        if (got < want) break;
      }
    }
  } finally {
    closeSync(fd);
  }
  return counts;
}
