import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { EVENT_NAMES, type EventName, type EventPayload } from '../../../shared/ipc.ts';
import { applyEvent } from '../desk/cache.ts';
import { deskApi } from '../desk/desk.ts';

/** The latest payload of one core event (null until the first one arrives). */
export function useDeskEvent<E extends EventName>(event: E): EventPayload<E> | null {
  const [value, setValue] = useState<EventPayload<E> | null>(null);
  useEffect(() => deskApi()?.on(event, (p) => setValue(p)), [event]);
  return value;
}

/** Core events keep the cache current: each one refetches what the contract says it made stale. */
export function useInvalidateOnEvents(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const desk = deskApi();
    if (!desk) return;
    const offs = EVENT_NAMES.map((event) => desk.on(event, (payload) => void applyEvent(qc, event, payload)));
    return () => offs.forEach((off) => off());
  }, [qc]);
}
