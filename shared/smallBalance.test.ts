import { describe, expect, it } from 'vitest';
import { DustConvertRequest, DustHistoryRequest } from './smallBalance.ts';

// What the window may ask of the small-balance channels, checked in the core before anything runs.
describe('small-balance requests', () => {
  it('pages the history per §8.1: 100 by default, 1 to 100', () => {
    expect(DustHistoryRequest.parse({ account: 'main' })).toEqual({ account: 'main', page: 1, limit: 100 });
    for (const limit of [0, 101, 1.5]) expect(DustHistoryRequest.safeParse({ account: 'main', limit }).success).toBe(false);
    expect(DustHistoryRequest.safeParse({ account: 'main', limit: 101 }).error?.issues[0]?.message).toBe('limit is 1 to 100');
  });

  it('names an account that is neither the main account nor a sub-account id, and an empty selection', () => {
    expect(DustHistoryRequest.safeParse({ account: 'sub-1' }).error?.issues.map((i) => i.message)).toContain(
      'must be "main" or a sub-account user id',
    );
    expect(DustConvertRequest.safeParse({ rows: [] }).error?.issues[0]?.message).toBe('select at least one small balance');
  });
});
