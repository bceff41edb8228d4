import { homedir } from 'node:os';
import { join } from 'node:path';

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
