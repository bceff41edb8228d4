import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ChannelRequest, ChannelResponse, EventName, EventPayload, IntentPage, IntentView } from '../../../shared/ipc.ts';
import { EVENT_NAMES } from '../../../shared/ipcNames.ts';
import { FINISHED_INTENT_STATES } from '../../../shared/intentStates.ts';
import {
  LOAD_DONE_READS,
  MONEY_MOVED_READS,
  MONEY_MOVED_STATES,
  readsOfIntentKind,
  STALE_AFTER_WRITE,
  STALE_ON_EVENT,
  WRITTEN_BY_ANSWER,
  WRITTEN_BY_EVENT,
  type QueryChannel,
  type WriteChannel,
} from '../../../shared/ipcStale.ts';
import { useDesk } from './DeskProvider.tsx';
import { deskQuery } from './queryOptions.ts';
import { deskKeys } from './queryKeys.ts';

/** A read from the core through TanStack Query, built by its channel's options factory (queryOptions.ts). */
export function useDeskQuery<C extends QueryChannel>(
  name: C,
  request: ChannelRequest<C>,
  opts: { refetchIntervalMs?: number; enabled?: boolean; staleTimeMs?: number } = {},
) {
  const desk = useDesk();
  return useQuery({
    ...deskQuery(desk, name, request),
    refetchInterval: opts.refetchIntervalMs,
    ...(opts.enabled === undefined ? {} : { enabled: opts.enabled }),
    ...(opts.staleTimeMs === undefined ? {} : { staleTime: opts.staleTimeMs }),
  });
}

/** Merges one intent into every cached page of the intents list: replaced in place, or added at the top of a first page (newest first). */
export function mergeIntent(qc: QueryClient, intent: IntentView): void {
  for (const [key, page] of qc.getQueriesData<IntentPage>({ queryKey: deskKeys.intentsList.all })) {
    if (!page) continue;
    const request = key[2] as ChannelRequest<'intentsList'> | undefined;
    const list = page.items;
    const keep = !(request?.unfinished_only && FINISHED_INTENT_STATES.has(intent.state));
    const at = list.findIndex((i) => i.id === intent.id);
    // An answer can arrive after the event of a later state: the newer view stays.
    if (at >= 0 && list[at]!.updated_at > intent.updated_at) continue;
    // Only the first page (no cursor) takes a new intent: a later page holds older ones.
    const first = request?.after === undefined;
    const next =
      at >= 0
        ? list.filter((i) => keep || i.id !== intent.id).map((i) => (i.id === intent.id ? intent : i))
        : keep && first
          ? [intent, ...list]
          : list;
    qc.setQueryData(key, { ...page, items: next });
  }
}

function invalidate(qc: QueryClient, stale: readonly QueryChannel[]): void {
  for (const c of stale) void qc.invalidateQueries({ queryKey: deskKeys[c].all });
}

function writeAnswer(qc: QueryClient, channel: QueryChannel, value: unknown): void {
  if (channel === 'intentsList') mergeIntent(qc, value as IntentView);
  else qc.setQueryData(deskKeys[channel].of({} as never), value);
}

/**
 * A write through the core. Its answer goes into the cache where it is the new value of a read;
 * what else it makes stale comes from the contract (shared/ipcStale.ts), usually nothing, since the
 * core announces what changed with an event.
 */
export function useDeskMutation<C extends WriteChannel>(name: C) {
  const desk = useDesk();
  const qc = useQueryClient();
  return useMutation<ChannelResponse<C>, Error, ChannelRequest<C>>({
    mutationFn: (request) => desk.call(name, request),
    onSuccess: (answer) => {
      const target = (WRITTEN_BY_ANSWER as Partial<Record<WriteChannel, QueryChannel>>)[name];
      if (target) writeAnswer(qc, target, answer);
      invalidate(qc, STALE_AFTER_WRITE[name]);
    },
  });
}

/** The latest payload of one core event (null until the first one arrives). */
export function useDeskEvent<E extends EventName>(event: E): EventPayload<E> | null {
  const desk = useDesk();
  const [value, setValue] = useState<EventPayload<E> | null>(null);
  useEffect(() => desk.on(event, (p) => setValue(() => p)), [desk, event]);
  return value;
}

/** Applies every core event to the cache: its payload written where it is a read's new value, and only the reads it makes stale refetched. */
export function useDeskEventsIntoCache(): void {
  const desk = useDesk();
  const qc = useQueryClient();
  useEffect(() => {
    const offs = EVENT_NAMES.map((event) =>
      desk.on(event, (payload: unknown) => {
        const target = (WRITTEN_BY_EVENT as Partial<Record<EventName, QueryChannel>>)[event];
        if (target) writeAnswer(qc, target, payload);
        if (event === 'intent' && MONEY_MOVED_STATES.has((payload as IntentView).state)) invalidate(qc, MONEY_MOVED_READS);
        // Only a finished load changes what the balance reads show (the stale map cannot say "only when done").
        if (event === 'balancesProgress' && (payload as EventPayload<'balancesProgress'>).done) invalidate(qc, LOAD_DONE_READS);
        if (event === 'intent') invalidate(qc, readsOfIntentKind((payload as IntentView).kind));
        if (event === 'sandbox' && (payload as EventPayload<'sandbox'>).state === 'down') return;
        invalidate(qc, STALE_ON_EVENT[event]);
      }),
    );
    return () => offs.forEach((off) => off());
  }, [desk, qc]);
}
