import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// The renderer is loaded from file:// in Electron and from the web host over loopback: relative base.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    // The confirmation page is its own entry: its own window (Electron) or origin (web host).
    rollupOptions: { input: { main: resolve(import.meta.dirname, 'renderer/index.html'), confirm: resolve(import.meta.dirname, 'renderer/confirm.html') } },
  },
});
