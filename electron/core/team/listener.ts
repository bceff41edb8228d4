import pg from 'pg';
import { CHANNEL } from './append.ts';

// The connection on which a desk hears of other desks' appends (LISTEN). It is apart from the pool, since
// a pooled connection is handed back between queries and would miss the notices meanwhile.

export interface ListenerEvents {
  /** A notice: its payload is the position at which the records now end. */
  notice(payload: string | undefined): void;
  /** The records may have changed unheard (the connection lost or back): read again. */
  changed(): void;
}

export class StoreListener {
  private client: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly on: ListenerEvents,
  ) {}

  async listen(): Promise<void> {
    const c = new pg.Client(this.config);
    c.on('error', () => this.relisten(c));
    c.on('end', () => this.relisten(c));
    c.on('notification', (n) => this.on.notice(n.payload));
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
    if (this.closed) {
      await c.end();
      return;
    }
    this.client = c;
  }

  /** The listening connection was lost: listen again, and say the records may have changed meanwhile. */
  private relisten(c: pg.Client): void {
    if (this.closed || this.client !== c) return;
    this.client = null;
    // Without the notices this desk would not hear of a freeze: it reads now, finds the store offline, and holds.
    this.on.changed();
    // That read may still have reached a server on its way down (its pooled connection not yet ended): the
    // first failed attempt to listen again says so, and the desk reads once more and finds it offline.
    let toldDown = false;
    const retry = (): void => {
      if (this.closed) return;
      this.listen().then(
        () => this.on.changed(),
        () => {
          if (!toldDown) {
            toldDown = true;
            this.on.changed();
          }
          setTimeout(retry, 1000);
        },
      );
    };
    setTimeout(retry, 1000);
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
  }
}
