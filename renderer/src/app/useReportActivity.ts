import { useEffect } from 'react';
import { useDesk } from '../desk/DeskProvider.tsx';

const EVERY_MS = 30_000;

/** Tells the core that a person is using the window, at most every 30 s, so that only real idleness locks the desk. */
export function useReportActivity(): void {
  const desk = useDesk();
  useEffect(() => {
    let last = 0;
    const seen = () => {
      const now = Date.now();
      if (now - last < EVERY_MS) return;
      last = now;
      void desk.call('userActive', {}).catch(() => {});
    };
    window.addEventListener('keydown', seen, true);
    window.addEventListener('pointerdown', seen, true);
    return () => {
      window.removeEventListener('keydown', seen, true);
      window.removeEventListener('pointerdown', seen, true);
    };
  }, [desk]);
}
