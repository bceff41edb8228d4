import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ChannelRequest, ChannelResponse } from '../../../shared/ipc.ts';
import { useDesk } from './DeskProvider.tsx';
import { deskQuery } from './queryOptions.ts';

/** The reads whose last answer the core keeps for the next start's first paint (electron/core/balances/lastKnown.ts). */
export type LastKnownChannel = ChannelRequest<'lastKnown'>['channel'];

export interface Shown<T> {
  /** The exchange's answer of this start, or else the last known one. */
  data: T | undefined;
  /** When the figures shown are the last known ones: the time they were read (ms since the epoch); null when they are this start's. */
  lastKnownAt: number | null;
}

/**
 * What to show for a read of the exchange: its answer once it came, and until then (or while the exchange
 * does not answer) the last known answer from the desk's cache, with its time so that the page can say
 * how old it is. The cache is asked once, and only while there is no answer of this start.
 */
export function useLastKnown<C extends LastKnownChannel>(
  channel: C,
  request: ChannelRequest<C>,
  live: UseQueryResult<ChannelResponse<C>>,
): Shown<ChannelResponse<C>> {
  const desk = useDesk();
  const fresh = live.data !== undefined && !live.isPlaceholderData;
  const known = useQuery({
    ...deskQuery(desk, 'lastKnown', { channel, request } as ChannelRequest<'lastKnown'>),
    enabled: !fresh,
    staleTime: Infinity,
  });
  if (fresh) return { data: live.data, lastKnownAt: null };
  const k = known.data;
  return k ? { data: k.data as ChannelResponse<C>, lastKnownAt: k.at } : { data: live.data, lastKnownAt: null };
}
