import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema and committed; the server applies them at start-up.
export default defineConfig({
  dialect: 'postgresql',
  schema: './packages/db/src/schema/index.ts',
  out: './packages/db/migrations',
});
