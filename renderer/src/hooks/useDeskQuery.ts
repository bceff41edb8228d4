import { useQuery } from '@tanstack/react-query';
import type { ChannelName, ChannelRequest } from '../../../shared/ipc.ts';
import { call } from '../desk/desk.ts';

/** Every read from the core goes through TanStack Query, keyed by channel and request. */
export function useDeskQuery<C extends ChannelName>(name: C, request: ChannelRequest<C>, opts: { refetchIntervalMs?: number } = {}) {
  return useQuery({
    queryKey: [name, request],
    queryFn: () => call(name, request),
    refetchInterval: opts.refetchIntervalMs,
  });
}
