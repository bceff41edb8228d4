import type { AlertView } from './balances.ts';
import { Dec, fmt } from './decimal.ts';
import { groupDigits } from './digits.ts';

// §2.8: cross margin `risk` = total / (borrowed + interest), a ratio; "below 110% triggers liquidation"
// puts the line at the ratio 1.1. The desk keeps ratios on the wire, in the store and in every
// comparison, and shows them to the operator as percentages (1.1 is 110%), threshold inputs included,
// so that a figure and the threshold it is compared with are always read in the same unit.

/** The ratio at which §2.8 liquidates. */
export const LIQUIDATION_RATIO = '1.1';

/** A ratio as a percentage, exact and digits grouped: "49.1674" is "4,916.74%", "1.1" is "110%". */
export function ratioAsPercent(ratio: string | null): string {
  if (ratio === null) return '—';
  return `${groupDigits(fmt(new Dec(ratio).times(100)))}%`;
}

/** Percent places accepted so that the stored ratio keeps at most 8 decimals (shared/balances.ts Ratio). */
const PERCENT_RE = /^(0|[1-9]\d{0,10})(\.\d{1,6})?$/;

/**
 * A threshold typed as a percentage ("150" or "150%") into the ratio the core stores ("1.5"), or the
 * reason it is refused. At or below 110% the account is liquidated before the alert could help.
 */
export function thresholdFromPercent(text: string): { ratio: string } | { problem: string } {
  const t = text.trim().replace(/\s*%$/, '');
  if (!PERCENT_RE.test(t)) return { problem: 'Type the threshold as a percentage such as 150 (at most 6 decimal places).' };
  const ratio = new Dec(t).div(100);
  if (ratio.lte(LIQUIDATION_RATIO))
    return {
      problem: `A threshold of ${t}% is at or below 110%, where the account is already liquidated: type more than 110, such as 150.`,
    };
  return { ratio: fmt(ratio) };
}

/** An alert in words, the same on the page and in the desktop notification. */
export function alertSentence(a: Pick<AlertView, 'kind' | 'subject' | 'value' | 'threshold'>): string {
  if (a.kind === 'cross_risk')
    return `cross margin risk ${ratioAsPercent(a.value)} is below ${ratioAsPercent(a.threshold)} (110% is liquidation)`;
  if (a.kind === 'margin_risk')
    return `isolated margin ${a.subject} risk ${ratioAsPercent(a.value)} is below ${ratioAsPercent(a.threshold)}`;
  return `${a.subject} holdings ${groupDigits(a.value)} are below the floor of ${groupDigits(a.threshold)}`;
}
