/** A history record's time (unix seconds, as the exchange sends it) in UTC: "2026-11-24 14:05:09". */
export const time = (s: string) => (s ? new Date(Number(s) * 1000).toISOString().replace('T', ' ').slice(0, 19) : '');
