import type { Page } from 'playwright-core';
import { launchBrowser, launchBrowserWithProfile } from '../../e2e/harness.ts';

// The two windows the browser benchmarks open (docs/benchmarks.md §Reading the figures). The judged one is the returning operator's: one
// browser profile for the whole run, whose HTTP cache and V8 code cache outlast its tabs, as the desk's
// own window keeps its session between starts (Electron; the app:// scheme is registered with codeCache)
// and a browser finds the web host's files again on the port `npm start` keeps. The other is a browser
// that never showed the desk (a new profile for each tab: nothing cached, every script compiled anew), as
// after a reinstall; its figures are printed, not judged.

export interface Windows {
  /** A tab of the returning operator's window. */
  returning(): Promise<Page>;
  /** A tab of a browser that never showed the desk. */
  first(): Promise<Page>;
  close(): Promise<void>;
}

/** Both windows; `dir` holds the returning window's profile and is the caller's to remove. */
export async function openWindows(dir: string, viewport: { width: number; height: number }): Promise<Windows> {
  const kept = await launchBrowserWithProfile(dir, viewport);
  const fresh = await launchBrowser().catch(async (e: unknown) => {
    await kept.close();
    throw e;
  });
  return {
    returning: () => kept.newPage(),
    first: () => fresh.newPage({ viewport }),
    close: async () => {
      await kept.close();
      await fresh.close();
    },
  };
}
