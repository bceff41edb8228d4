import type { ChannelName, ChannelRequest, DeskApi, Reply } from '../../../shared/ipc.ts';
import { createWebDesk } from './webDesk.ts';

// The reads of a start's first paint are sent by the window's first script (renderer/src/opening.ts), a
// few kilobytes that run as soon as they are fetched, instead of once React, the router and the boot's
// code have been evaluated: a CPU profile of a start showed 100-150 ms of that evaluation before the first
// read left (docs/performance.md §Opening the desk). The answers wait here, and the app's own call of the same read takes them (once),
// so that they go through the same path as any answer: DeskProvider's call, the query cache, the page.
// This module is shared by both entries, so both see one instance of it.

export type EarlyRead = { [C in ChannelName]: readonly [C, ChannelRequest<C>] }[ChannelName];

let api: DeskApi | null | undefined;
let asked = false;
const waiting = new Map<string, Promise<Reply<unknown>>>();
const keyOf = (name: ChannelName, request: unknown) => `${name} ${JSON.stringify(request ?? {})}`;

/**
 * The window's link to the core, made once: Electron's preload gives window.desk; in a browser the web
 * desk takes the token from the address (and removes it) before anything reads the route from it.
 */
export function deskApi(): DeskApi | null {
  if (api === undefined) api = window.desk ?? createWebDesk();
  return api;
}

/** Sends the reads now, the first time it is called in this window (whichever entry runs first). */
export function askEarly(reads: (hash: string) => readonly EarlyRead[]): void {
  if (asked) return;
  asked = true;
  const to = deskApi();
  if (!to) return;
  for (const [name, request] of reads(window.location.hash)) {
    const call = to[name] as (r: unknown) => Promise<Reply<unknown>>;
    const reply = call(request);
    // A transport that throws throws again for the call that takes it; one nobody takes is no unhandled rejection.
    reply.catch(() => {});
    waiting.set(keyOf(name, request), reply);
  }
}

/** The answer of a read sent early with this very request, handed out once; undefined otherwise. */
export function takeEarly(name: ChannelName, request: unknown): Promise<Reply<unknown>> | undefined {
  const key = keyOf(name, request);
  const reply = waiting.get(key);
  waiting.delete(key);
  return reply;
}
