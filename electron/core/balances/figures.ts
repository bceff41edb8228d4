import type { MatrixRow } from '../../../shared/balances.ts';
import { RECORDS_PER_STEP } from './lastLoad.ts';
import { keepOpeningView, OPENING_VIEW, openingViewOf, queryRows, rowOf, type SubAccountEntry, type Viewed } from './matrix.ts';
import { Prices } from './valuation.ts';

// The sub-accounts' figures of one load, the exchange's or the kept one, and the matrix rows valued from
// them per quote currency, made once per load and quote. The rows carry no alert counts: those change
// without a load, and are put on at each ask (BalancesService.withAlerts).

export class SubAccountFigures {
  entries: SubAccountEntry[] = [];
  private prices: Prices | null = null;
  private readonly rows = new Map<string, MatrixRow[]>();

  /** The figures of a new exchange load, with its rows in the opening view's quote. */
  replace(made: { entries: SubAccountEntry[]; prices: Prices; rows: MatrixRow[] }): void {
    this.entries = made.entries;
    this.prices = made.prices;
    this.rows.clear();
    this.rows.set(OPENING_VIEW.quote, made.rows);
  }

  /** The opening view kept with a load, read back before its sub-accounts' figures. */
  keepOpening(opening: Viewed, prices: Prices): void {
    this.rows.set(OPENING_VIEW.quote, opening.all);
    keepOpeningView(opening);
    this.prices = prices;
  }

  /** The kept load's sub-accounts' figures, read back. */
  keepEntries(entries: SubAccountEntry[], prices: Prices): void {
    this.entries = entries;
    this.prices = prices;
  }

  /** The rows in `quote` are made (a kept view, or valued): an ask in that quote needs nothing else. */
  valued(quote: string): () => boolean {
    return () => this.rows.has(quote);
  }

  /** The rows in `quote`, valued RECORDS_PER_STEP sub-accounts a step (BalancesService.warmUp). */
  *valuing(quote: string): Generator<void> {
    if (this.rows.has(quote)) return;
    const prices = this.prices ?? new Prices([]);
    const rows: MatrixRow[] = [];
    for (const [i, e] of this.entries.entries()) {
      if (i > 0 && i % RECORDS_PER_STEP === 0) yield;
      rows.push(rowOf(e, prices, quote, 0));
    }
    this.rows.set(quote, rows);
  }

  rowsIn(quote: string): MatrixRow[] {
    let rows = this.rows.get(quote);
    if (!rows) {
      const prices = this.prices ?? new Prices([]);
      rows = this.entries.map((e) => rowOf(e, prices, quote, 0));
      this.rows.set(quote, rows);
    }
    return rows;
  }

  /** The opening view worked out ahead: the page's first ask only cuts its first block. */
  warm(): void {
    if (this.entries.length) queryRows(this.rowsIn(OPENING_VIEW.quote), { ...OPENING_VIEW, offset: 0, limit: 0 });
  }

  /** The opening view to keep with the load, if its rows are made. */
  openingView(): Viewed | null {
    const rows = this.rows.get(OPENING_VIEW.quote);
    return rows ? openingViewOf(rows) : null;
  }
}
