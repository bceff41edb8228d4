import { TotalBalance } from '../../../shared/api/records.ts';
import type { ApiClient, Priority } from '../client/client.ts';
import type { BalanceStore } from './store.ts';

// The §2.9 totals kept for the Overview's chart: every fetch of the total, the window's or the core's own
// while the window is hidden, in the currency the window last asked for.

export class TotalSnapshots {
  private currency = 'USDT';
  private lastAt = 0;

  constructor(
    private readonly store: BalanceStore,
    private readonly client: () => ApiClient | Promise<ApiClient>,
    private readonly now: () => number,
  ) {}

  /** Whether the core's own snapshot is due: none in the last half of `everyMs`, so that the chart's points are not doubled. */
  due(everyMs: number): boolean {
    return this.now() - this.lastAt >= everyMs / 2;
  }

  async take(priority: Priority): Promise<void> {
    const currency = this.currency;
    const t = await (
      await this.client()
    ).request({ method: 'GET', path: '/wallet/total_balance', query: [['currency', currency]], priority }, TotalBalance);
    this.record(currency, t.total.amount);
  }

  record(currency: string, amount: string): void {
    this.currency = currency;
    this.lastAt = this.now();
    this.store.addSnapshot(this.lastAt, currency, amount);
  }

  list(currency: string, since: number) {
    return this.store.snapshots(currency, since, 5000);
  }
}
