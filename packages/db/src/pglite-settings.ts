import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/** The SQL migrations drizzle-kit generates, shared by both drivers. */
export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * PGlite's own start-up flags plus smaller buffers. Its WebAssembly memory only grows, so Postgres'
 * default 128 MB of shared buffers became ~100 MB more resident memory for an embedded database
 * whose data is mostly small and read through the OS page cache anyway (issue 15: idle RSS). The
 * others are per-operation work areas that one connection at server sizes never needs more of.
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['shared_buffers=16MB', 'wal_buffers=1MB', 'temp_buffers=1MB', 'work_mem=4MB'].flatMap((setting) => [
    '-c',
    setting,
  ]),
];
