import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import './zodWords.ts';

// Zod's own messages never reach an operator: each issue is a clause in words, and a schema's own message wins.

const first = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error!.issues[0]!.message;

describe("zod's messages in words", () => {
  it('words each kind of issue without zod’s terms', () => {
    expect(first(z.string().max(3), 'abcd')).toBe('at most 3 characters');
    expect(first(z.string().min(1), '')).toBe('required');
    expect(first(z.array(z.string()).min(1), [])).toBe('at least 1 entry');
    expect(first(z.number().min(5), 2)).toBe('at least 5');
    expect(first(z.object({ a: z.string() }), {})).toBe('required');
    expect(first(z.number(), 'x')).toBe('must be a number');
    expect(first(z.enum(['spot', 'margin']), 'futures')).toBe('must be one of spot, margin');
    for (const m of [first(z.string().max(3), 'abcd'), first(z.object({ a: z.object({}) }), {})]) {
      expect(m).not.toMatch(/Too big|Too small|Invalid input|expected|received/);
    }
  });

  it("keeps a schema's own message", () => {
    expect(first(z.string().regex(/^\d+$/, 'a sub-account uid is digits'), 'x')).toBe('a sub-account uid is digits');
  });
});
