import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// The renderer is loaded from app:// in Electron and from the web host over loopback: relative base.
// Pages are lazy chunks (app/routes.ts); the libraries every page needs are split by family so that no
// chunk reaches the size warning (which stays at Vite's default).
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // No source maps in the shipped bundle (the web host refuses *.map as well).
    sourcemap: false,
    rolldownOptions: {
      // The confirmation page is its own entry: its own window (Electron) or origin (web host).
      input: { main: resolve(import.meta.dirname, 'renderer/index.html'), confirm: resolve(import.meta.dirname, 'renderer/confirm.html') },
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
