// Times as the desk shows them: local time, year first, 24-hour ("2026-11-27 14:05:09"). One form on every
// page whatever the operator's locale, since "11/12" is a day in one country and a month in another; and no
// Intl, whose first date formatter in a page loads the locale's data: 20 to 45 ms in CPU profiles, inside
// whichever interaction called it first (the total's "fetched" time landed in the first click, docs/performance.md §Opening the desk).

const two = (n: number) => String(n).padStart(2, '0');

/** Milliseconds since the epoch, or an ISO 8601 time as the journal keeps it. */
type At = number | string;

/** "2026-11-27", local. */
export function dayOf(ms: At): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** "14:05:09", local. */
export function timeOfDay(ms: At): string {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** "2026-11-27 14:05:09", local. */
export function dateTime(ms: At): string {
  return `${dayOf(ms)} ${timeOfDay(ms)}`;
}

/** "2026-11-27 14:05", local: where seconds say nothing (ages of figures). */
export function dateTimeToMinute(ms: At): string {
  return dateTime(ms).slice(0, 16);
}

/** "14:05" today, "2026-11-24 14:05" on another day (local time). */
export function clockOf(ms: At, now: number): string {
  const hm = timeOfDay(ms).slice(0, 5);
  return dayOf(ms) === dayOf(now) ? hm : `${dayOf(ms)} ${hm}`;
}
