import type { ChannelName, ChannelRequest, ChannelResponse, DeskApi, EventName, EventPayload, Reply } from '../../../shared/ipc.ts';
import { CHANNEL_NAMES } from '../../../shared/ipc.ts';

type Answer<C extends ChannelName> =
  | ChannelResponse<C>
  | Error
  | ((request: ChannelRequest<C>) => ChannelResponse<C> | Reply<ChannelResponse<C>> | Promise<ChannelResponse<C>>);
export type FakeAnswers = { [C in ChannelName]?: Answer<C> };

/** A desk for component tests: answers from a table, counts every call per channel, and emits events on demand. */
export interface FakeDesk {
  api: DeskApi;
  calls: Record<string, unknown[]>;
  /** How many times a channel was called. */
  count(name: ChannelName): number;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  answers: FakeAnswers;
}

export function fakeDesk(answers: FakeAnswers): FakeDesk {
  const calls: Record<string, unknown[]> = {};
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const methods = Object.fromEntries(
    CHANNEL_NAMES.map((name) => [
      name,
      async (request: unknown): Promise<Reply<unknown>> => {
        (calls[name] ??= []).push(request);
        const a = fake.answers[name] as unknown;
        if (a === undefined) return { ok: false, error: { kind: 'internal', message: `the fake desk has no answer for ${name}` } };
        if (a instanceof Error) return { ok: false, error: { kind: 'network', message: a.message } };
        // An answer may be a promise: a test holds a read in flight to see what the page shows meanwhile.
        const v = typeof a === 'function' ? await (a as (r: unknown) => unknown)(request) : a;
        if (v && typeof v === 'object' && 'ok' in v && ((v as Reply<unknown>).ok === false || 'data' in v)) return v as Reply<unknown>;
        return { ok: true, data: structuredClone(v) };
      },
    ]),
  );
  const api = {
    ...methods,
    on: (event: string, l: (p: unknown) => void) => {
      const set = listeners.get(event) ?? new Set();
      set.add(l);
      listeners.set(event, set);
      return () => set.delete(l);
    },
  } as unknown as DeskApi;
  const fake: FakeDesk = {
    api,
    calls,
    answers,
    count: (name) => calls[name]?.length ?? 0,
    emit: (event, payload) => {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
  };
  return fake;
}
