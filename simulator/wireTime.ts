// The times of the §4.3 response headers as text, made cheaply: every answer carries three.

/** '000' to '999': the digits below the second of a wire time, three at a time. */
const DIGITS3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
let wholeSec = -1;
let wholeSecText = '';

/**
 * An integer count of milliseconds or microseconds since the epoch as text, as String() writes it.
 * Three per request (X-In-Time, X-Out-Time, the reset time): String() of a 13- to 16-digit number is a
 * shortest-round-trip conversion each time, so the seconds' digits are kept while the second lasts and
 * the ones below it come from a table.
 */
export function unixText(units: number, perSec: 1e3 | 1e6): string {
  if (!(units >= perSec && Number.isSafeInteger(units))) return String(units);
  const whole = Math.floor(units / perSec);
  if (whole !== wholeSec) {
    wholeSec = whole;
    wholeSecText = String(whole);
  }
  const below = units - whole * perSec;
  if (perSec === 1e3) return wholeSecText + DIGITS3[below]!;
  return wholeSecText + DIGITS3[Math.floor(below / 1000)]! + DIGITS3[below % 1000]!;
}

/** X-In-Time and X-Out-Time (§4.3): integer Unix microseconds. */
export function micros(sec: number): string {
  return unixText(Math.round(sec * 1e6), 1e6);
}
