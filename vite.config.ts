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
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
});
