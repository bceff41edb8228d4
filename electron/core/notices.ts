import type { Notice, Notices } from '../../shared/notices.ts';

// The in-app side of every `notify` event: kept until the operator reads it (the desktop's own
// notifications come and go). One notice per tag, the newest first; the oldest leave past a bound so a
// busy week cannot grow the core without end.

const KEPT = 200;

export class NoticeBoard {
  private items: Notice[] = [];
  private next = 1;

  constructor(private readonly now: () => number = Date.now) {}

  /** A notice that is `done` closes what its tag's earlier notice asked for: kept, as read. */
  add({ done, ...n }: { title: string; body: string; tag: string; done?: boolean }): void {
    const notice = { ...n, id: this.next++, at: this.now(), read: done === true };
    this.items = [notice, ...this.items.filter((x) => x.tag !== n.tag)].slice(0, KEPT);
  }

  /** Marks the given notices read, or every one when none is named. */
  read(ids?: readonly number[]): Notices {
    const which = ids ? new Set(ids) : null;
    this.items = this.items.map((x) => (!which || which.has(x.id) ? { ...x, read: true } : x));
    return this.view();
  }

  view(): Notices {
    return { unread: this.items.filter((x) => !x.read).length, items: this.items };
  }
}
