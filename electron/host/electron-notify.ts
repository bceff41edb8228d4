import type { Core } from '../core/core.ts';

// The core's `notify` event as a desktop notification (Electron's Notification, main process). The web
// host has none: the page shows the browser's own (renderer/src/features/history/useNotifications.ts).

export interface NotificationLike {
  show(): void;
}
export interface NotificationCtor {
  new (opts: { title: string; body: string; silent?: boolean }): NotificationLike;
  isSupported(): boolean;
}

export function showNotifications(core: Pick<Core, 'subscribe'>, Notification: NotificationCtor): () => void {
  return core.subscribe((event, payload) => {
    if (event !== 'notify' || !Notification.isSupported()) return;
    const n = payload as { title: string; body: string; done?: boolean };
    if (n.done) return;
    new Notification({ title: n.title, body: n.body }).show();
  });
}
