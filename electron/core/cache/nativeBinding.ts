// better-sqlite3 is a native module: the copy npm built is for Node's ABI (the web host, the tests).
// Under Electron (`npm start` where the Electron binary runs) the core must load a copy built for
// Electron's ABI instead; electron/electron-native.ts builds it with @electron/rebuild and start.ts hands
// its path over in TREASURY_DESK_SQLITE_BINDING. Packaged apps need none of this: electron-builder
// rebuilds the module itself.

export function sqliteBinding(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!process.versions.electron) return undefined;
  const path = env.TREASURY_DESK_SQLITE_BINDING;
  return path && path.length > 0 ? path : undefined;
}
