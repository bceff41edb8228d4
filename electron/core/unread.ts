import type { UnreadRecord, UnreadRecords } from '../../shared/unread.ts';
import type { ApiRequest } from './client/client.ts';

// The records the active profile's latest list answers set aside (client.ts, requestList), one entry per
// request as sent: the next answer to the same request replaces it, so a record the exchange corrects
// leaves the count, and a page read every minute is counted once.

/** Most records kept for the window's details; the count stays exact beyond it. */
const SHOWN_MAX = 200;

export class UnreadRegistry {
  private readonly byRequest = new Map<string, UnreadRecord[]>();

  constructor(private readonly changed: (view: UnreadRecords) => void) {}

  note(req: ApiRequest, unread: UnreadRecord[]): void {
    const key = `${req.method} ${req.path}?${JSON.stringify(req.query ?? [])}`;
    if (unread.length === 0 && !this.byRequest.has(key)) return;
    if (unread.length === 0) this.byRequest.delete(key);
    else this.byRequest.set(key, unread);
    this.changed(this.view());
  }

  /** Another profile: what the last one's answers set aside says nothing of this one's. */
  clear(): void {
    if (this.byRequest.size === 0) return;
    this.byRequest.clear();
    this.changed(this.view());
  }

  view(): UnreadRecords {
    const all = [...this.byRequest.values()].flat();
    return { count: all.length, records: all.slice(0, SHOWN_MAX) };
  }
}
