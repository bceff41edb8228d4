// The page a window shows, from its address, apart from the window store: electron-store imports
// `electron`, which the window's own code and its tests must not load for this.

/**
 * What is kept of a location: a page, up to three path segments under it (`sub-accounts/12345`) and its
 * query (`withdrawals?status=EXTPEND`). The window loads it back into its own app:// address after `#/`,
 * so it is held to characters that can only ever be a route of this app: no scheme, no `//`, no `#`.
 */
export const ROUTE = /^[a-z][a-z-]{0,31}(?:\/[A-Za-z0-9_.-]{1,64}){0,3}(?:\?[A-Za-z0-9_.~%&=+-]{0,512})?$/;

/** The location of a renderer address (app://desk/index.html#/sub-accounts/12345 -> "sub-accounts/12345"), parameters included. */
export function routeOf(url: string): string | undefined {
  const at = url.indexOf('#');
  if (at < 0) return undefined;
  const route = url.slice(at + 1).replace(/^\//, '');
  return ROUTE.test(route) ? route : undefined;
}
