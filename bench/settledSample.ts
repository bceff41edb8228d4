// After a full collection V8 hands the pages it freed back to the system on a background thread, so
// the resident size read at once still counts them: in a scratch process that had churned 150 MB of old
// objects, 231 MB right after gc() and 96 MB 300 ms later, with V8's spaces the same. The Sandbox bench
// read its "after a full GC" figure at once, and what it counted then depended on how much garbage
// that collection happened to free: +1.4 % to +19.4 % over the same five minutes of the same code.

/** Reads until two readings 50 ms apart differ by less than 256 KiB, at most 2 s; answers the last. */
export async function settledSample<T extends { rss: number }>(
  read: () => T,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  opts: { stepMs: number; maxMs: number; bytes: number } = { stepMs: 50, maxMs: 2000, bytes: 256 * 1024 },
): Promise<T> {
  let last = read();
  for (let waited = 0; waited < opts.maxMs; waited += opts.stepMs) {
    await wait(opts.stepMs);
    const next = read();
    const settled = Math.abs(next.rss - last.rss) < opts.bytes;
    last = next;
    if (settled) break;
  }
  return last;
}
