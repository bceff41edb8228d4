import type { ChannelRequest } from '../../../shared/ipc.ts';
import { QUERY_CHANNELS, type QueryChannel } from '../../../shared/ipcStale.ts';

// One key shape for every cached answer: ['desk', channel, request]. Invalidating ['desk', channel]
// reaches every request of that channel, and nothing else.

type KeyFactory = {
  [C in QueryChannel]: {
    /** Every cached answer of this channel, whatever the request. */
    all: readonly ['desk', C];
    /** The answer to one request. */
    of: (request: ChannelRequest<C>) => readonly ['desk', C, ChannelRequest<C>];
  };
};

export const deskKeys = Object.fromEntries(
  QUERY_CHANNELS.map((c) => [c, { all: ['desk', c] as const, of: (request: unknown) => ['desk', c, request] as const }]),
) as KeyFactory;

/** Every answer from the desk (a profile switch, a test reset). */
export const ALL_DESK_KEYS = ['desk'] as const;
