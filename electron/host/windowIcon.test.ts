import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../core/core.ts';
import { startWebHost } from './web.ts';

// The window's icon is a build asset, named by its content and kept by the browser for good. Served from
// the build's root without a lifetime, the browser asked for it again (and parsed it again, on the page's
// thread) at every change of the address, a filter's included (docs/performance.md §Opening the desk). Reads the build `npm test` makes.

const BUILD = join(import.meta.dirname, '..', '..', 'dist', 'renderer');
const core: Core = { invoke: async () => ({ ok: true as const, data: null }), subscribe: () => () => {}, close: async () => {} };

describe("the window's icon", () => {
  it('is an asset of the build that the browser keeps', async () => {
    expect(existsSync(join(BUILD, 'index.html')), 'dist/renderer is built by `npm run build`').toBe(true);
    const html = readFileSync(join(BUILD, 'index.html'), 'utf8');
    const href = /<link rel="icon"[^>]*href="([^"]+)"/.exec(html)?.[1];
    expect(href).toMatch(/^\.\/assets\/icon-[\w-]+\.svg$/);
    const host = await startWebHost({ core, staticDir: BUILD });
    try {
      const res = await fetch(new URL(href!, `${host.origin}/`));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await res.text()).toContain('<svg');
    } finally {
      await host.close();
    }
  });
});
