import type { Page } from 'playwright-core';

// The web host shows the core's `notify` events as the browser's notifications. Headless Chromium shows
// none, so the test wraps window.Notification before the page loads and reads what the page showed.

export interface Caught {
  title: string;
  body: string;
  tag: string;
}

/** Runs in the page (a string: the e2e code is compiled without the DOM's types). */
const WRAP = `(() => {
  const shown = [];
  window.__notifications = shown;
  class Recorded {
    static permission = 'granted';
    static requestPermission() { return Promise.resolve('granted'); }
    constructor(title, opts) { shown.push({ title, body: (opts && opts.body) || '', tag: (opts && opts.tag) || '' }); }
    close() {}
  }
  window.Notification = Recorded;
})();`;

/** Wraps window.Notification (permission granted) in `page` before any of its scripts run. */
export async function catchNotifications(page: Page): Promise<void> {
  await page.addInitScript(WRAP);
}

/** Every notification the page has shown so far. */
export function caughtNotifications(page: Page): Promise<Caught[]> {
  return page.evaluate<Caught[]>('window.__notifications || []');
}
