import { getHeapSpaceStatistics } from 'node:v8';

// Loaded into the Sandbox child by bench/sandbox.ts (`--import`), never by the Sandbox itself. Once a
// second it sends, over the child's IPC channel, its resident size and what of it V8's young generation
// holds, read at the same instant: V8 sizes the young generation to the allocation rate, up to a fixed
// maximum, so its swings say nothing about a leak, and the bench judges memory without them.

export interface MemorySample {
  /** Resident size, bytes. */
  rss: number;
  /** Bytes V8 holds for its young generation (new space and new large objects). */
  young: number;
  /** Bytes of live and not yet collected JavaScript objects. */
  heapUsed: number;
}

function young(): number {
  let bytes = 0;
  for (const s of getHeapSpaceStatistics())
    if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') bytes += s.space_size;
  return bytes;
}

setInterval(() => {
  if (!process.connected) return;
  const m = process.memoryUsage();
  const sample: MemorySample = { rss: m.rss, young: young(), heapUsed: m.heapUsed };
  process.send!({ memoryProbe: sample });
}, 1000).unref();
