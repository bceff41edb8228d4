import type { ComponentType } from 'react';

/**
 * A page's code, with zod's messages in words installed before the page can check anything: the contract's
 * schemas, which installed them, are no longer part of the window's start (issue 25). The Overview checks
 * nothing, and its first paint does not wait for zod.
 */
export async function loadPage(load: () => Promise<{ default: ComponentType }>, words = true): Promise<{ Component: ComponentType }> {
  const [page] = await Promise.all([load(), words ? import('../../../shared/zodWords.ts') : null]);
  return { Component: page.default };
}
