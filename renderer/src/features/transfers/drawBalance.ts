import { dec, isDecimalString } from '../../../../shared/money.ts';
import type { Source } from './transferWrite.ts';

// How much an account can give, from the balances the desk already holds (§2.8 records for the
// sub-accounts, the main account's own accounts read fresh): spot `available`, an isolated margin pair's
// base or quote `available`, a futures account's `available` in its settlement currency. Delivery and
// options accounts are not among them: their balance is unknown here and the exchange checks it.

type Wire = Record<string, unknown>;

export interface Holdings {
  spot: Record<string, string>;
  margin: Wire[];
  futures: Record<string, Wire>;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The available amount of `currency` in the source account, or null when the desk cannot know it. */
export function availableIn(h: Holdings, source: Source, currency: string): string | null {
  const c = currency.trim().toUpperCase();
  switch (source.kind) {
    case 'spot':
      return h.spot[c] ?? '0';
    case 'margin': {
      if (!source.pair) return null;
      const rec = h.margin.find((m) => m.currency_pair === source.pair);
      if (!rec) return '0';
      for (const side of [rec.base, rec.quote] as (Wire | undefined)[]) {
        if (side && String(side.currency).toUpperCase() === c) return str(side.available) ?? '0';
      }
      return '0';
    }
    case 'futures': {
      const settle = (source.settle ?? '').toLowerCase();
      if (settle !== c.toLowerCase()) return '0';
      return str(h.futures[settle]?.available) ?? '0';
    }
    default:
      return null;
  }
}

/** Why an amount cannot leave the source, or null: checked before anything is reviewed or sent. */
export function overdraws(amount: string, available: string | null, currency: string): string | null {
  if (available === null || !isDecimalString(amount) || !isDecimalString(available)) return null;
  return dec(amount).gt(dec(available))
    ? `The amount is above what the source account holds (${available} ${currency.trim().toUpperCase()} available).`
    : null;
}

/** How old a balance is, in words an operator reads at a glance. */
export function ageText(fetchedAt: number | null, now: number): string {
  if (fetchedAt === null) return 'never read';
  const s = Math.max(0, Math.round((now - fetchedAt) / 1000));
  if (s < 60) return 'fresh (read just now)';
  const m = Math.round(s / 60);
  if (m < 60) return `read ${m} min ago`;
  const h = Math.round(m / 60);
  return h < 48 ? `read ${h} h ago` : `read ${Math.round(h / 24)} days ago`;
}
