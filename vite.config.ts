import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is loaded from file:// in Electron and from the web host over loopback: relative base.
// Pages are lazy chunks (app/routes.ts); the libraries every page needs are split by family so that no
// chunk reaches the size warning (which stays at Vite's default).
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
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
