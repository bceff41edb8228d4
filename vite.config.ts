import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is loaded from file:// in Electron and from the web host over loopback: relative base.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // No source maps in the shipped bundle (the web host refuses *.map as well).
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
});
