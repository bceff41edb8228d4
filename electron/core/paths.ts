import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The desk's data folder: $TREASURY_DESK_HOME when set, else the folder Electron itself would use
 * for userData with productName "Treasury Desk", so both hosts share one folder.
 */
export function deskHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TREASURY_DESK_HOME) return env.TREASURY_DESK_HOME;
  const name = 'Treasury Desk';
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), name);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', name);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), name);
}

/**
 * Where the journals' anchors live (journal/anchor.ts): $TREASURY_DESK_STATE when set, else a folder
 * beside the data folder ("<data folder>.anchors"), never inside it, so that restoring the data folder
 * from a backup leaves the anchors where they were. Both hosts call this with the same home, so the
 * Electron host and the web host check the same anchors.
 */
export function deskStateDir(home: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.TREASURY_DESK_STATE ? env.TREASURY_DESK_STATE : join(dirname(resolve(home)), `${basename(resolve(home))}.anchors`);
}

/** The state directory as given, refused when it is the data folder or inside it (a folder restore would take it back too). */
export function checkedStateDir(dataDir: string, stateDir: string): string {
  const rel = relative(resolve(dataDir), resolve(stateDir));
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
    throw new Error(
      `The state directory ${stateDir} is inside the data folder ${dataDir}: a restore of the folder would take the anchors back with it. Choose a directory outside it.`,
    );
  }
  return resolve(stateDir);
}
