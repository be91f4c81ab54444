import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      // A sandboxed preload must be a single CommonJS script.
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      // electron-vite leaves the renderer unminified; the first chunk is what every start loads
      // (see README, "What the renderer loads first")
      minify: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        output: {
          // React's runtime changes only with a React upgrade: its own chunk, loaded beside the first
          manualChunks: (id) =>
            /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id) ? 'react-runtime' : undefined,
          // only the entry is `index-*.js` (a shared chunk of a package's index.js would be too)
          chunkFileNames: (chunk) =>
            chunk.name === 'index' ? 'assets/shared-[hash].js' : 'assets/[name]-[hash].js',
        },
      },
    },
    plugins: [react()],
  },
});
