import react from '@vitejs/plugin-react';
import { basename, resolve } from 'node:path';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

/**
 * A start opens on the Overview: its chunk (and what it imports) is fetched with the boot's own files,
 * named in index.html, instead of after the boot's code has run and asked for it (docs/performance.md §Opening the desk). Only the
 * window's page (index.html), not the confirmation page; after the page's own tags, so
 * that its Content-Security-Policy comes first.
 */
function preloadFirstPage(page: string, firstScript: string): Plugin {
  return {
    name: 'desk-preload-first-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.chunk || basename(ctx.filename) !== 'index.html') return;
        const chunks = new Map(Object.values(ctx.bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
        const boot = new Set<string>();
        const walk = (file: string, into: Set<string>) => {
          if (into.has(file) || boot.has(file)) return;
          into.add(file);
          for (const i of chunks.get(file)?.imports ?? []) walk(i, into);
        };
        walk(ctx.chunk.fileName, boot);
        const first = [...chunks.values()].find((c) => c.facadeModuleId === page);
        if (!first) throw new Error(`preloadFirstPage: no chunk for ${page}`);
        const files = new Set<string>();
        walk(first.fileName, files);
        const css = [...files].flatMap((f) => [...(chunks.get(f)?.viteMetadata?.importedCss ?? [])]);
        // The window's first script, before the app's (module scripts run in the order of the page), with
        // the files it imports named beside it so that they are fetched in parallel, not one after the other.
        const opening = [...chunks.values()].find((c) => c.isEntry && c.facadeModuleId === firstScript);
        if (!opening) throw new Error(`preloadFirstPage: no chunk for ${firstScript}`);
        const early = new Set<string>();
        walk(opening.fileName, early);
        const earlyTags = [
          `<script type="module" async crossorigin src="./${opening.fileName}"></script>`,
          ...[...early].filter((f) => f !== opening.fileName).map((f) => `<link rel="modulepreload" crossorigin href="./${f}">`),
        ].join('\n    ');
        const app = html.indexOf('<script type="module"');
        if (app < 0) throw new Error('preloadFirstPage: no app script in index.html');
        return {
          html: `${html.slice(0, app)}${earlyTags}\n    ${html.slice(app)}`,
          tags: [
            ...[...files].map((f): HtmlTagDescriptor => ({
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` },
              injectTo: 'head',
            })),
            ...css.map((f): HtmlTagDescriptor => ({
              tag: 'link',
              attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `./${f}` },
              injectTo: 'head',
            })),
          ],
        };
      },
    },
  };
}

// The renderer is loaded from app:// in Electron and from the web host over loopback: relative base.
// Pages are lazy chunks (app/routes.ts); the libraries every page needs are split by family so that no
// chunk reaches the size warning (which stays at Vite's default).
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [
    react(),
    preloadFirstPage(
      resolve(import.meta.dirname, 'renderer/src/features/overview/OverviewPage.tsx'),
      resolve(import.meta.dirname, 'renderer/src/opening.ts'),
    ),
  ],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // No source maps in the shipped bundle (the web host refuses *.map as well).
    sourcemap: false,
    rolldownOptions: {
      // The confirmation page is its own entry: its own window (Electron) or origin (web host).
      // opening.ts: the window's first script, named in index.html by preloadFirstPage.
      input: {
        main: resolve(import.meta.dirname, 'renderer/index.html'),
        confirm: resolve(import.meta.dirname, 'renderer/confirm.html'),
        opening: resolve(import.meta.dirname, 'renderer/src/opening.ts'),
      },
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
});
