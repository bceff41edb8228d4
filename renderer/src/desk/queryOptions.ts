import { queryOptions } from '@tanstack/react-query';
import type { ChannelRequest, ChannelResponse } from '../../../shared/ipc.ts';
import { KEPT_FRESH_BY_EVENTS, QUERY_CHANNELS, type QueryChannel } from '../../../shared/ipcStale.ts';
import type { Desk } from './DeskProvider.tsx';
import { deskKeys } from './queryKeys.ts';

// One options factory per read channel (key, fetch, freshness), as Actual Budget's `payeeQueries.list()`:
// hooks, prefetches and tests all build a read from here, so a read is fresh or stale the same way
// wherever it is used.

/**
 * How long a cached answer counts as fresh. A read the core's events keep fresh (shared/ipcStale.ts)
 * is never stale on its own: a page mount shows the cache, an event or a write refetches it, and an
 * explicit refresh (`refetch()`) still asks. Any other read is stale at once, as TanStack's default.
 */
export function staleTimeOf(channel: QueryChannel): number {
  return KEPT_FRESH_BY_EVENTS.has(channel) ? Infinity : 0;
}

type Factories = {
  [C in QueryChannel]: (desk: Desk, request: ChannelRequest<C>) => ReturnType<typeof deskQuery<C>>;
};

/** The options of one read: its key from the key factory, the call, and its freshness. */
export function deskQuery<C extends QueryChannel>(desk: Desk, channel: C, request: ChannelRequest<C>) {
  return queryOptions({
    queryKey: deskKeys[channel].of(request) as readonly unknown[],
    queryFn: () => desk.call(channel, request) as Promise<ChannelResponse<C>>,
    staleTime: staleTimeOf(channel),
  });
}

export const deskQueries = Object.fromEntries(
  QUERY_CHANNELS.map((c) => [c, (desk: Desk, request: never) => deskQuery(desk, c, request)]),
) as unknown as Factories;
