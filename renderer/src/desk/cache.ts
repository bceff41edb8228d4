import type { QueryClient } from '@tanstack/react-query';
import {
  FINISHED_INTENT_STATES, STALE_AFTER_CALL, STALE_AFTER_EVENT, type ChannelName, type ChannelRequest, type EventName,
  type EventPayload, type IntentPage, type IntentView,
} from '../../../shared/ipc.ts';

// The renderer's cache of core answers: one key shape for every query, and the contract's word on what
// each event and each call makes stale. Nothing else is refetched.

export const deskKeys = {
  all: ['desk'] as const,
  channel: <C extends ChannelName>(name: C) => ['desk', name] as const,
  query: <C extends ChannelName>(name: C, request: ChannelRequest<C>) => ['desk', name, request] as const,
};

export function invalidateChannels(qc: QueryClient, names: readonly ChannelName[]): Promise<void> {
  return Promise.all(names.map((name) => qc.invalidateQueries({ queryKey: deskKeys.channel(name) }))).then(() => undefined);
}

/** After a call succeeded: what it made stale, and an intent it answered written into the lists. */
export function afterCall<C extends ChannelName>(qc: QueryClient, name: C, answer: unknown): Promise<void> {
  if (name === 'writePrepare' || name === 'writeApprove' || name === 'writeCancel' || name === 'writeSettle') writeIntent(qc, answer as IntentView);
  return invalidateChannels(qc, STALE_AFTER_CALL[name]);
}

/** A core event: an intent's new state goes straight into the cached pages; the rest is refetched. */
export function applyEvent<E extends EventName>(qc: QueryClient, event: E, payload: EventPayload<E>): Promise<void> {
  if (event === 'intent') writeIntent(qc, payload as EventPayload<'intent'>);
  return invalidateChannels(qc, STALE_AFTER_EVENT[event]);
}

const newerFirst = (a: IntentView, b: IntentView) => b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Replaces the intent in every cached page that holds it; a new one goes to the top of first pages. */
export function writeIntent(qc: QueryClient, v: IntentView): void {
  for (const query of qc.getQueryCache().findAll({ queryKey: deskKeys.channel('intentsList') })) {
    const request = query.queryKey[2] as ChannelRequest<'intentsList'> | undefined;
    const wanted = !(request?.unfinished_only && FINISHED_INTENT_STATES.has(v.state));
    qc.setQueryData<IntentPage>(query.queryKey, (page) => {
      if (!page) return page;
      const held = page.items.some((i) => i.id === v.id);
      if (held) {
        const items = page.items.flatMap((i) => (i.id !== v.id ? [i] : wanted ? [v] : []));
        return { ...page, items };
      }
      // Only the first page (no cursor) shows what is newer than everything already listed.
      if (!wanted || request?.after) return page;
      return { ...page, items: [...page.items, v].sort(newerFirst) };
    });
  }
}
