import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { EventName, EventPayload } from '../../../shared/ipc.ts';
import { deskApi } from '../desk/desk.ts';

/** The latest payload of one core event (null until the first one arrives). */
export function useDeskEvent<E extends EventName>(event: E): EventPayload<E> | null {
  const [value, setValue] = useState<EventPayload<E> | null>(null);
  useEffect(() => deskApi()?.on(event, (p) => setValue(p)), [event]);
  return value;
}

/** Core events that change what queries show invalidate those queries: the core is the source of truth. */
export function useInvalidateOnEvents(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const desk = deskApi();
    if (!desk) return;
    const offProfiles = desk.on('profiles', () => void qc.invalidateQueries());
    const offVault = desk.on('vault', () => void qc.invalidateQueries());
    return () => {
      offProfiles();
      offVault();
    };
  }, [qc]);
}
