// better-sqlite3 is a native module: node_modules holds the copy npm built for Node's ABI (the web host,
// the tests, the Sandbox under Node). Under Electron (the main process, and the Sandbox in a packaged
// app's utility process) a copy built for Electron's ABI must be loaded instead. Whoever starts such a
// process names that copy in TREASURY_DESK_SQLITE_BINDING (electron/start.ts for `npm start` with the
// Electron binary, electron/main.ts for a packaged app); every database the desk or its Sandbox opens
// takes these options.

export function sqliteOptions(env: Record<string, string | undefined> = process.env): { nativeBinding?: string } {
  const path = env.TREASURY_DESK_SQLITE_BINDING;
  return path ? { nativeBinding: path } : {};
}
