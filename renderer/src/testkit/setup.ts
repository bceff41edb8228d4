import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has <dialog> but not its modal methods: open and close it as the browser would (the focus
// trap itself is the browser's and is checked in the e2e tests).
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  // As the browser does for a modal dialog: Escape fires a cancelable `cancel`, then closes it.
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    const open = [...document.querySelectorAll('dialog[open]')].pop() as HTMLDialogElement | undefined;
    if (open && open.dispatchEvent(new Event('cancel', { cancelable: true }))) open.close();
  });
}
// recharts' ResponsiveContainer measures its box.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;
afterEach(() => cleanup());
// Pages load lazily and two cores are shared by several jobs: give each wait room.
configure({ asyncUtilTimeout: 5000 });
