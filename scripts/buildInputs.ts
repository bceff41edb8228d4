import { inputsHash } from '../electron/inputsHash.ts';

// What `npm run build` reads: the app's and the Sandbox's sources, the build's own configuration and the
// locked dependencies. Its hash decides whether `npm start` builds again.

const SOURCE_DIRS = ['renderer', 'shared', 'electron', 'simulator'];
const FILES = ['vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json', 'renderer/tsconfig.json'];

export function buildInputsHash(root: string): string {
  return inputsHash(root, SOURCE_DIRS, FILES);
}
