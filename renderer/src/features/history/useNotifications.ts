import { useEffect } from 'react';
import { useDesk } from '../../desk/DeskProvider.tsx';

// Under the web host the core's `notify` events become the browser's notifications. Permission is asked
// once (the answer is the browser's to keep); under Electron the main process shows them itself.

const ASKED = 'desk-notifications-asked';

export function useBrowserNotifications(): void {
  const desk = useDesk();
  useEffect(() => {
    if (window.desk || typeof Notification === 'undefined') return;
    return desk.on('notify', (n) => {
      if (n.done) return;
      const show = () => {
        if (Notification.permission === 'granted') new Notification(n.title, { body: n.body, tag: n.tag });
      };
      if (Notification.permission === 'default' && !localStorage.getItem(ASKED)) {
        localStorage.setItem(ASKED, '1');
        void Notification.requestPermission().then(show);
      } else show();
    });
  }, [desk]);
}
