// Where money may be sent, as characters. A destination that looks right on screen can still be another
// one: a Cyrillic "а" in place of a Latin "a", a zero-width space, or a right-to-left mark that reorders
// what the operator reads. Every chain the exchange lists writes its addresses and memos in plain ASCII,
// so anything else in one is a look-alike or a paste that carried hidden characters. Every door checks
// here, through the contract's schemas: the withdraw form, a payout file's rows, the address book, the
// review and the draft.

/** Chains whose addresses are not plain ASCII. None that the exchange lists today; a chain added here says its own alphabet. */
const CHAIN_ALPHABETS: Readonly<Record<string, { test: (ch: string) => boolean; name: string }>> = {};

const PRINTABLE_ASCII = { test: (ch: string) => ch >= '!' && ch <= '~', name: 'plain ASCII letters, digits and punctuation' };

/** Characters that draw nothing or change the reading order; named so the operator can find the culprit. */
const HIDDEN_NAMES: Readonly<Record<number, string>> = {
  0x00a0: 'a no-break space',
  0x00ad: 'an invisible soft hyphen',
  0x034f: 'an invisible combining grapheme joiner',
  0x061c: 'an Arabic letter mark (changes the reading direction)',
  0x180e: 'an invisible Mongolian vowel separator',
  0x200b: 'an invisible zero-width space',
  0x200c: 'an invisible zero-width non-joiner',
  0x200d: 'an invisible zero-width joiner',
  0x200e: 'a left-to-right mark (changes the reading direction)',
  0x200f: 'a right-to-left mark (changes the reading direction)',
  0x202a: 'a left-to-right embedding (changes the reading direction)',
  0x202b: 'a right-to-left embedding (changes the reading direction)',
  0x202c: 'a pop directional formatting mark (changes the reading direction)',
  0x202d: 'a left-to-right override (changes the reading direction)',
  0x202e: 'a right-to-left override (changes the reading direction)',
  0x2060: 'an invisible word joiner',
  0x2066: 'a left-to-right isolate (changes the reading direction)',
  0x2067: 'a right-to-left isolate (changes the reading direction)',
  0x2068: 'a first-strong isolate (changes the reading direction)',
  0x2069: 'a pop directional isolate (changes the reading direction)',
  0xfeff: 'an invisible zero-width no-break space (byte order mark)',
};

const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Z}\p{M}]$/u;

const hex = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

function describe(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const named = HIDDEN_NAMES[cp];
  if (named) return `${named} (${hex(cp)})`;
  if (ch === ' ') return 'a space';
  if (INVISIBLE.test(ch)) return `an invisible or formatting character (${hex(cp)})`;
  if (cp < 0x80) return `a control character (${hex(cp)})`;
  return `the non-ASCII character "${ch}" (${hex(cp)}), which can pass for an ASCII letter`;
}

/** Why `text` (an address or a memo) cannot be on `chain`, or null. `what` names it in the sentence. */
export function destinationTextProblem(text: string, chain: string, what: 'address' | 'memo'): string | null {
  const alphabet = CHAIN_ALPHABETS[chain] ?? PRINTABLE_ASCII;
  let position = 0;
  for (const ch of text) {
    position++;
    // A memo may be words (some chains take a text memo); a space inside one is a space, not a trick.
    if (!alphabet.test(ch) && !(what === 'memo' && ch === ' ')) {
      const where = chain ? `${chain} ${what}es` : `${what}es`;
      return `has ${describe(ch)} at character ${position}: ${where} are ${alphabet.name}, so this one is a look-alike or was copied with hidden characters. Copy it again from its source.`;
    }
  }
  return null;
}

export interface DestinationProblem {
  field: 'address' | 'memo';
  message: string;
}

/** Every problem of a destination's address and memo (each message begins with what it is about). */
export function destinationProblems(d: { chain: string; address: string; memo?: string | undefined }): DestinationProblem[] {
  const out: DestinationProblem[] = [];
  const a = destinationTextProblem(d.address, d.chain, 'address');
  if (a) out.push({ field: 'address', message: `The address ${a}` });
  const m = d.memo ? destinationTextProblem(d.memo, d.chain, 'memo') : null;
  if (m) out.push({ field: 'memo', message: `The memo ${m}` });
  return out;
}

/** For a zod object schema's superRefine: each problem on its own field. */
export function refineDestination(
  d: { chain: string; address: string; memo?: string | undefined },
  ctx: { addIssue(issue: { code: 'custom'; path: string[]; message: string }): void },
): void {
  for (const p of destinationProblems(d)) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
}
