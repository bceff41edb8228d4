// Node loads its HTTP client (undici) at a process's first fetch and compiles the WebAssembly parser it
// reads answers with at the first answer: 60-80 ms of one core in a process just started. The core's
// first fetch comes with its start-up, right after the window's first paint, where it held the first
// click's requests up (docs/performance.md §Opening the desk: `npm run bench -- ui`, the first Withdrawals page 230-370 ms in the runs
// whose click met it). One request to the host's own address, before the window is told where it is,
// does that work while nothing waits for the host.

/** A host that cannot answer its own request this soon is not worth waiting for longer. */
const WARM_UP_AT_MOST_MS = 1_000;

/** Fetches a path of `origin` that answers 404, reading the answer; never throws, never waits past the bound. */
export async function warmHttpClient(origin: string): Promise<void> {
  try {
    await (await fetch(`${origin}/.http-client-warm-up`, { signal: AbortSignal.timeout(WARM_UP_AT_MOST_MS) })).arrayBuffer();
  } catch {
    // A client that cannot warm up now does at its first real request.
  }
}
