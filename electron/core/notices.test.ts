import { describe, expect, it } from 'vitest';
import { NoticeBoard } from './notices.ts';

// Notices are kept until read: one per tag (the newest), newest first, read by id or all at once.

describe('the notice board', () => {
  it('keeps the newest notice of a tag, unread again, first; reads by id or all', () => {
    let t = 1000;
    const board = new NoticeBoard(() => t++);
    board.add({ title: 'Withdrawal w1: REQUEST', body: 'Requested', tag: 'withdrawals:w1' });
    board.add({ title: 'Signature needed', body: 'Send 5 USDT', tag: 'ticket:a' });
    const first = board.view().items.find((n) => n.tag === 'ticket:a')!;
    expect(board.read([first.id])).toMatchObject({ unread: 1 });
    board.add({ title: 'Withdrawal w1: DONE', body: 'Completed', tag: 'withdrawals:w1' });
    const view = board.view();
    expect(view.items.map((n) => [n.title, n.read])).toEqual([
      ['Withdrawal w1: DONE', false],
      ['Signature needed', true],
    ]);
    expect(view.unread).toBe(1);
    expect(board.read()).toMatchObject({ unread: 0 });
  });

  it("a done notice replaces its tag's notice as read: a signature no longer needed leaves the unread count", () => {
    const board = new NoticeBoard();
    board.add({ title: 'Signature needed', body: 'Add T… to the address book', tag: 'ticket:a' });
    expect(board.view().unread).toBe(1);
    board.add({ title: 'Signature no longer needed', body: 'withdrawn', tag: 'ticket:a', done: true });
    expect(board.view()).toMatchObject({ unread: 0, items: [{ title: 'Signature no longer needed', read: true }] });
  });

  it('keeps at most 200, dropping the oldest', () => {
    const board = new NoticeBoard();
    for (let i = 0; i < 205; i++) board.add({ title: `n${i}`, body: '', tag: `t${i}` });
    const items = board.view().items;
    expect(items).toHaveLength(200);
    expect(items[0]!.title).toBe('n204');
    expect(items.at(-1)!.title).toBe('n5');
  });
});
