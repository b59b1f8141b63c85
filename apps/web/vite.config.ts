import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { precompress } from './build/precompress';
import { themeScript } from './build/theme-script';

const server = 'http://localhost:8080';
const page = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export default defineConfig({
  plugins: [react(), themeScript(['index.html']), precompress()],
  // Workspace packages are compiled from their TypeScript sources.
  resolve: { conditions: ['@tandem/source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // Two pages: the single-page app, and the landing page that the server sends visitors without a
    // session (plain HTML and a small script, no React; docs/decisions.md "Landing page without the SPA").
    rolldownOptions: { input: { index: page('index.html'), landing: page('landing.html') } },
  },
  server: {
    proxy: Object.fromEntries(['/api', '/auth', '/asset', '/user_asset'].map((p) => [p, server])),
  },
});
