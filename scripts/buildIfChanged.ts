import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildInputsHash } from './buildInputs.ts';

// `npm start` builds only when an input of the build changed since the last build (or the
// outputs are missing): a second start with nothing changed goes straight to the app.

const root = join(import.meta.dirname, '..');
const stamp = join(root, 'dist', '.build-inputs');
const outputs = [
  'dist/renderer/index.html',
  'dist/renderer/confirm.html',
  'dist/electron/main.mjs',
  'dist/sandbox/main.mjs',
  'dist/start/start.mjs',
].map((p) => join(root, p));

const hash = buildInputsHash(root);
const built = existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && outputs.every((p) => existsSync(p));
if (built) {
  process.stderr.write('Build up to date (no input changed since the last build).\n');
} else {
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  // The build writes the stamp itself (electron/build.ts), so that `npm run build` counts too.
  if (r.status !== 0) process.exit(r.status ?? 1);
}
