import { useState } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { useDeskMutation, useDeskQuery } from '../../desk/hooks.ts';
import { dateTime } from '../../components/localTime.ts';

/**
 * The in-app side of every notification (a withdrawal that ended, a batch that finished, a signature
 * needed): a count on every page, and the list kept in the core until the operator reads it, so that
 * a desktop notification missed or never shown (the web host without permission) is not lost.
 */
export function NoticeTray() {
  const notices = useDeskQuery('noticesList', {});
  const markRead = useDeskMutation('noticesRead');
  const [open, setOpen] = useState(false);
  const unread = notices.data?.unread ?? 0;
  const items = notices.data?.items ?? [];
  return (
    <>
      <button type="button" className={unread > 0 ? 'notices-button unread' : 'notices-button'} onClick={() => setOpen(true)}>
        {unread > 0 ? `Notices (${unread} unread)` : 'Notices'}
      </button>
      {open && (
        <Dialog label="Notices" onClose={() => setOpen(false)}>
          <h2>Notices</h2>
          {items.length === 0 ? (
            <p className="muted">Nothing to tell yet.</p>
          ) : (
            <ul className="notice-list" data-testid="notice-list">
              {items.map((n) => (
                <li key={n.id} className={n.read ? 'read' : 'unread'}>
                  <strong>{n.title}</strong>
                  {!n.read && <span className="tag"> new</span>}
                  <div>{n.body}</div>
                  <time className="muted small" dateTime={new Date(n.at).toISOString()}>
                    {dateTime(n.at)}
                  </time>
                </li>
              ))}
            </ul>
          )}
          <div className="actions">
            <button type="button" disabled={unread === 0 || markRead.isPending} onClick={() => markRead.mutate({})}>
              Mark all read
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
          {markRead.error && <p role="alert">The notices could not be marked read: {markRead.error.message}</p>}
        </Dialog>
      )}
    </>
  );
}
