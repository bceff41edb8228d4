import type { ComponentType } from 'react';
import { withWords } from '../components/withWords.ts';

/**
 * A page's code, with zod's messages in words installed before the page can check anything. A page whose
 * code imports no zod (the Overview, the matrix: their forms load apart, through withWords) does not wait
 * for them, so that its first paint does not wait for zod (docs/performance.md §Opening the desk).
 */
export async function loadPage(load: () => Promise<{ default: ComponentType }>, words = true): Promise<{ Component: ComponentType }> {
  const page = await (words ? withWords(load()) : load());
  return { Component: page.default };
}
