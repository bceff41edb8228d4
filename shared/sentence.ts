/**
 * A message as an operator reads it: a capital first letter and a closing full stop. Zod's and the
 * core's refusals are written as clauses ("a passphrase has at least 10 characters") so that they read
 * well after a field's name in a log; on screen they stand alone.
 */
export function asSentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}
