import type { BrowserContext } from 'playwright-core';

/**
 * Holds back the app's boot chunk in `context` until `release()`: meanwhile only the window's first script
 * (renderer/src/opening.ts) can ask the core anything, which is what the first-read tests look at.
 */
export async function holdBootChunk(context: BrowserContext): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await context.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
