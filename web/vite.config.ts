import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Three pages, built into dist/web and served by the service itself: the console (/app/), the
 * operator page (/app/operator, whose template designer is a chunk of its own, loaded when a
 * template is opened) and the hosted record form (/forms/). Assets get content hashes, so the service can let browsers
 * keep them for a year; nothing is loaded from another origin.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  publicDir: false,
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    rollupOptions: {
      input: { app: here('app/index.html'), operator: here('operator/index.html'), forms: here('forms/index.html') },
    },
  },
  resolve: {
    alias: { '@wrs/client': here('../clients/typescript/src/index.ts') },
  },
});
