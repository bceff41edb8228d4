import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import viteConfig from '../vite.config.ts';

// The packaged app's hardening lives in configuration, where no unit test would notice it going away:
// Electron's fuses in electron-builder.yml, and no source maps in what is shipped.

const ROOT = join(import.meta.dirname, '..');
const builder = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;

describe('packaging configuration', () => {
  it("sets Electron's fuses against running as Node, NODE_OPTIONS, --inspect and an app outside its checked asar", () => {
    expect(builder.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(builder.asar).toBe(true);
  });

  it('builds and ships no source maps', () => {
    expect(viteConfig.build?.sourcemap).toBe(false);
    expect(readFileSync(join(ROOT, 'electron', 'build.ts'), 'utf8')).not.toMatch(/sourcemap:\s*true/);
    expect(builder.files).toContain('!**/*.map');
  });
});
