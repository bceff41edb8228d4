import { useQuery } from '@tanstack/react-query';
import type { ChannelName, ChannelRequest } from '../../../shared/ipc.ts';
import { deskKeys } from '../desk/cache.ts';
import { call } from '../desk/desk.ts';

/** Every read from the core goes through TanStack Query, keyed by channel and request (deskKeys). */
export function useDeskQuery<C extends ChannelName>(name: C, request: ChannelRequest<C>, opts: { refetchIntervalMs?: number } = {}) {
  return useQuery({
    queryKey: deskKeys.query(name, request),
    queryFn: () => call(name, request),
    refetchInterval: opts.refetchIntervalMs,
  });
}
