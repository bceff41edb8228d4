// zod's messages in words (shared/zodWords.ts) are installed by importing them. The window's start no
// longer imports the contract's schemas, which did (docs/performance.md §Opening the desk): code that checks with zod is loaded
// through this, so that the words are in place before its first check.

/** `load`, answered once zod's words are installed too. */
export async function withWords<T>(load: Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([load, import('../../../shared/zodWords.ts')]);
  return loaded;
}
