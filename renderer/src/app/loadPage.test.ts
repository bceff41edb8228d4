import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { loadPage } from './loadPage.ts';

// The window's start no longer imports the contract's schemas, which installed zod's messages in words
// (shared/zodWords.ts): a page's code is handed over only once they are in place.

const page = () => null;

describe('loadPage', () => {
  it("hands a page over with zod's messages in words installed", async () => {
    const loaded = await loadPage(async () => ({ default: page }));
    expect(loaded.Component).toBe(page);
    expect(z.string().max(3).safeParse('abcd').error!.issues[0]!.message).toBe('at most 3 characters');
  });
});
