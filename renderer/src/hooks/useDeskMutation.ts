import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChannelName, ChannelRequest, ChannelResponse } from '../../../shared/ipc.ts';
import { afterCall } from '../desk/cache.ts';
import { call } from '../desk/desk.ts';

/** A call that changes something; on success only what the contract says it made stale is refetched. */
export function useDeskMutation<C extends ChannelName>(name: C) {
  const qc = useQueryClient();
  return useMutation<ChannelResponse<C>, Error, ChannelRequest<C>>({
    mutationFn: (request) => call(name, request),
    onSuccess: (answer) => afterCall(qc, name, answer),
  });
}
