import { describe, expect, it } from 'vitest';
import type { EventListener } from '../core/core.ts';
import { showNotifications } from './electron-notify.ts';

describe('desktop notifications', () => {
  it('shows each notify event, and nothing for other events', () => {
    let listener: EventListener | null = null;
    const core = { subscribe: (l: EventListener) => ((listener = l), () => {}) };
    const shown: Array<{ title: string; body: string }> = [];
    class FakeNotification {
      constructor(private readonly o: { title: string; body: string }) {}
      static isSupported() {
        return true;
      }
      show() {
        shown.push(this.o);
      }
    }
    showNotifications(core, FakeNotification);
    listener!('notify', { title: 'Not sent by this desk', body: 'Withdrawal w9', tag: 'unsent:withdrawals:w9' });
    listener!('journal', {});
    expect(shown).toEqual([{ title: 'Not sent by this desk', body: 'Withdrawal w9' }]);
  });
});
