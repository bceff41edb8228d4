import { describe, expect, it } from 'vitest';
import type { IntentView } from '../../../shared/ipc.ts';
import { intentPage } from './handlers.ts';

function intent(id: string, created_at: number): IntentView {
  return {
    id,
    kind: 'withdrawal',
    client_id: null,
    body: {},
    state: 'done',
    created_at,
    updated_at: created_at,
    attempts: 1,
    absent_lookups: 0,
  };
}

describe('intentsList pages', () => {
  it('walks the journal newest first by keyset: every intent once, none skipped when new ones arrive mid-walk', () => {
    // Several intents share a millisecond: the id breaks the tie, so the cursor never loses one.
    const journal = Array.from({ length: 250 }, (_, i) => intent(`i${String(i).padStart(3, '0')}`, 1_000 + Math.floor(i / 3)));
    const seen: string[] = [];
    let page = intentPage([...journal], undefined, 100);
    seen.push(...page.items.map((v) => v.id));
    // Ten new writes land while the operator reads the first page: an offset would now repeat ten rows.
    for (let i = 0; i < 10; i++) journal.push(intent(`n${i}`, 5_000 + i));
    while (page.next) {
      page = intentPage([...journal], page.next, 100);
      seen.push(...page.items.map((v) => v.id));
    }
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    const order = journal
      .filter((v) => v.id.startsWith('i'))
      .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1))
      .map((v) => v.id);
    expect(seen).toEqual(order);
  });

  it('answers an empty last page without a cursor', () => {
    const all = [intent('a', 2), intent('b', 1)];
    expect(intentPage([...all], undefined, 2)).toEqual({ items: [all[0], all[1]], next: null });
    expect(intentPage([...all], { created_at: 1, id: 'b' }, 2)).toEqual({ items: [], next: null });
  });
});
