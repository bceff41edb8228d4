import { getHeapSpaceStatistics } from 'node:v8';
import { settledSample } from './settledSample.ts';

// Loaded into the Sandbox child by bench/sandbox.ts (`--import`, with `--expose-gc`), never by the
// Sandbox itself. Once a second it sends, over the child's IPC channel, its resident size and what of it
// V8's young generation holds, read at the same instant: V8 sizes the young generation to the allocation
// rate, up to a fixed maximum, so its swings say nothing about a leak, and the bench judges memory
// without them. Asked to `collect`, it runs a full garbage collection first and answers one sample
// marked `collected`, once the pages the collection freed have left (settledSample.ts): what the
// Sandbox still holds then is what a leak would grow, free of where the collector happened to be in
// its cycle.

export interface MemorySample {
  /** Resident size, bytes. */
  rss: number;
  /** Bytes V8 holds for its young generation (new space and new large objects). */
  young: number;
  /** Bytes of live and not yet collected JavaScript objects. */
  heapUsed: number;
  /** Bytes V8 has committed for its heap, used or not. */
  heapTotal: number;
  /** Bytes of C++ objects tied to JavaScript ones (ArrayBuffers among them), outside V8's heap. */
  external: number;
  /** Taken right after a full collection the bench asked for. */
  collected?: boolean;
}

function young(): number {
  let bytes = 0;
  for (const s of getHeapSpaceStatistics())
    if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') bytes += s.space_size;
  return bytes;
}

function sample(): MemorySample {
  const m = process.memoryUsage();
  return { rss: m.rss, young: young(), heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external };
}

setInterval(() => {
  if (process.connected) process.send!({ memoryProbe: sample() });
}, 1000).unref();

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (m: { memoryProbe?: string }) => {
  if (m?.memoryProbe !== 'collect' || !process.connected) return;
  if (!gc) throw new Error('bench/memoryProbe.ts: the Sandbox child needs --expose-gc to collect');
  gc();
  // The live objects as the collection left them; the resident size once its freed pages have left (the
  // load goes on meanwhile, so objects read then would count up to 2 s of new allocations).
  const { heapUsed, external } = sample();
  void settledSample(sample).then((s) => {
    if (process.connected) process.send!({ memoryProbe: { ...s, heapUsed, external, collected: true } });
  });
});
// Listening must not keep a Sandbox alive that would otherwise exit.
process.channel?.unref();
