import { createContext, useContext, type ReactNode } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ChannelName, ChannelRequest, ChannelResponse, DeskApi, EventName, EventPayload, Reply } from '../../../shared/ipc.ts';
import type { LinkState } from '../../../shared/channels/status.ts';
import { EXCHANGE_CHANNELS } from '../../../shared/ipcStale.ts';
import { DeskError, errorTitle, operatorMessage } from './desk.ts';
import { HOST_DOWN } from './webDesk.ts';

/** What the window knows of its link to the exchange: the core's word on every request, and the window's own calls. */
export interface ConnectionState {
  /** When a call last came back with the exchange's answer (accepted or refused: it answered). */
  lastAnswerAt: number | null;
  /** The last call that got no answer, when it is newer than the last answer. */
  lastFailure: { at: number; title: string; message: string; host: boolean } | null;
  /** What the desk's supervisor last said of the Sandbox. */
  sandbox: EventPayload<'sandbox'> | null;
}

/** The desk as the window uses it: calls that throw DeskError, events, and the connection state. */
export interface Desk {
  readonly api: DeskApi | null;
  call<C extends ChannelName>(name: C, request: ChannelRequest<C>): Promise<ChannelResponse<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  readonly connection: StoreApi<ConnectionState>;
}

const NO_TOKEN = new DeskError({
  kind: 'invalid_request',
  message: "This page was opened without the desk's token. Open the address that `npm start` printed.",
});

/**
 * Takes the core's picture of the link (every request the desk sent, its polls among them) into the
 * window's: the newer answer and the newer failure win, whichever side saw them.
 */
export function noteLink(store: StoreApi<ConnectionState>, link: LinkState): void {
  const c = store.getState();
  const answer = Math.max(c.lastAnswerAt ?? -Infinity, link.last_answer_at ?? -Infinity);
  const lastAnswerAt = answer === -Infinity ? null : answer;
  const f = link.last_failure;
  const lastFailure =
    f && (c.lastFailure === null || f.at > c.lastFailure.at) ? { at: f.at, title: f.title, message: f.title, host: false } : c.lastFailure;
  if (lastAnswerAt !== c.lastAnswerAt || lastFailure !== c.lastFailure) store.setState({ lastAnswerAt, lastFailure });
}

/**
 * `early`: the answer of a read the window's first script already sent (earlyReads.ts), taken in place of
 * sending it again.
 */
export function createDesk(
  api: DeskApi | null,
  now: () => number = Date.now,
  early: (name: ChannelName, request: unknown) => Promise<Reply<unknown>> | undefined = () => undefined,
): Desk {
  const connection = createStore<ConnectionState>(() => ({ lastAnswerAt: null, lastFailure: null, sandbox: null }));
  api?.on('sandbox', (sandbox) => connection.setState({ sandbox }));
  api?.on('link', (link) => noteLink(connection, link));
  return {
    api,
    connection,
    async call(name, request) {
      if (!api) throw NO_TOKEN;
      const method = api[name] as unknown as (r: typeof request) => Promise<Reply<ChannelResponse<typeof name>>>;
      const taken = early(name, request) as Promise<Reply<ChannelResponse<typeof name>>> | undefined;
      const reply = await (taken ?? method(request));
      const reached = EXCHANGE_CHANNELS.has(name);
      if (reply.ok) {
        if (reached) connection.setState({ lastAnswerAt: now(), lastFailure: null });
        return reply.data;
      }
      const error = new DeskError(reply.error);
      if (reached && reply.error.kind === 'exchange') connection.setState({ lastAnswerAt: now(), lastFailure: null });
      const host = reply.error.kind === 'network' && reply.error.message === HOST_DOWN;
      if (host || (reached && (reply.error.kind === 'network' || reply.error.kind === 'internal'))) {
        connection.setState({ lastFailure: { at: now(), title: errorTitle(error), message: operatorMessage(error), host } });
      }
      throw error;
    },
    on(event, listener) {
      return api ? api.on(event, listener) : () => {};
    },
  };
}

const DeskContext = createContext<Desk | null>(null);

/** Hands the desk to every component below: the real one in the app, a fake one in tests. */
export function DeskProvider({ desk, children }: { desk: Desk; children: ReactNode }) {
  return <DeskContext.Provider value={desk}>{children}</DeskContext.Provider>;
}

export function useDesk(): Desk {
  const desk = useContext(DeskContext);
  if (!desk) throw new Error('useDesk outside a DeskProvider');
  return desk;
}
