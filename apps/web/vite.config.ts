import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { precompress } from './build/precompress';

const server = 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), precompress()],
  // Workspace packages are compiled from their TypeScript sources.
  resolve: { conditions: ['@tandem/source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: Object.fromEntries(['/api', '/auth', '/asset', '/user_asset'].map((p) => [p, server])),
  },
});
