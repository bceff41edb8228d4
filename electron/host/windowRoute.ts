// The page a window shows, from its address, apart from the window store: electron-store imports
// `electron`, which the window's own code and its tests must not load for this.

/** The route of a renderer address (file:///…/index.html#/activity -> "activity"). */
export function routeOf(url: string): string | undefined {
  const m = /#\/?([a-z]{1,32})$/.exec(url);
  return m?.[1];
}
