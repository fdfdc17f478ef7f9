// The console's build: one HTML page, its script and stylesheet as hashed files under assets/, no
// inline script (the console listener's CSP allows scripts from its own origin only) and no
// module-preload polyfill (it would be inline). Relative URLs, so a reverse proxy may mount the
// console under a sub-path. The app's build copies dist/ into its own dist/webui.
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: true,
  },
});
