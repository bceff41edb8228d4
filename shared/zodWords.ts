import { z } from 'zod';

// Zod's own messages ("Too big: expected string to have <=1024 characters", "Invalid input: expected
// object, received undefined") are for programmers. Every schema of the contract is checked under these
// words instead, in the desk and in the window alike; a schema's own message (written for the operator)
// still comes first. They are clauses, shown beside the field they concern or after its name.

type Issue = Parameters<z.core.$ZodErrorMap>[0];

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'yes or no',
  object: 'a set of values',
  array: 'a list',
};

const count = (n: number | bigint, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;

function sized(origin: string | undefined, n: number | bigint): string {
  if (origin === 'string') return count(n, 'character', 'characters');
  if (origin === 'array' || origin === 'set') return count(n, 'entry', 'entries');
  return String(n);
}

/** Zod's issue as a clause an operator reads; undefined leaves zod's own (never reached for the codes below). */
export function issueWords(iss: Issue): string | undefined {
  switch (iss.code) {
    case 'too_big':
      return `at most ${sized(iss.origin, iss.maximum as number)}${iss.inclusive === false ? ' (less than that)' : ''}`;
    case 'too_small':
      if (iss.origin === 'string' && Number(iss.minimum) === 1) return 'required';
      return `at least ${sized(iss.origin, iss.minimum as number)}`;
    case 'invalid_type':
      return iss.input === undefined ? 'required' : `must be ${KINDS[iss.expected] ?? iss.expected}`;
    case 'invalid_value':
      return `must be one of ${iss.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `has ${iss.keys.length > 1 ? 'fields' : 'a field'} the desk does not take (${iss.keys.join(', ')})`;
    case 'invalid_format':
      return 'not in the expected form';
    case 'not_multiple_of':
      return `must be a multiple of ${String(iss.divisor)}`;
    default:
      return 'not a valid value';
  }
}

z.config({ customError: (iss) => issueWords(iss) });
