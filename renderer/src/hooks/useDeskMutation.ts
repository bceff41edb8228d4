import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChannelName, ChannelRequest, ChannelResponse } from '../../../shared/ipc.ts';
import { call } from '../desk/desk.ts';

/** A write through the core; on success every query is refreshed, since a write can change any of them. */
export function useDeskMutation<C extends ChannelName>(name: C) {
  const qc = useQueryClient();
  return useMutation<ChannelResponse<C>, Error, ChannelRequest<C>>({
    mutationFn: (request) => call(name, request),
    onSuccess: () => qc.invalidateQueries(),
  });
}
