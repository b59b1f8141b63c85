/**
 * Creates a PGlite data directory and applies the migrations, then closes it. The server runs this
 * in a child process on its first start: creating the cluster (initdb) and the first migrations
 * leave a process with some 150 MB more resident memory (V8's compiled WebAssembly tiers and malloc
 * arenas it never returns) than one that opens an existing directory (issue 15: idle RSS).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, PGLITE_START_PARAMS } from './pglite-settings.js';

/** Whether `dataDir` holds no Postgres cluster yet. */
export function isFreshDataDir(dataDir: string): boolean {
  return !existsSync(join(dataDir, 'PG_VERSION'));
}

/** Creates and migrates the cluster in this process. */
export async function initPgliteDataDir(dataDir: string): Promise<void> {
  const client = await PGlite.create(dataDir, { startParams: PGLITE_START_PARAMS });
  try {
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.close();
  }
}

const script = fileURLToPath(import.meta.url);

/**
 * Creates and migrates the cluster in a child process. Run from TypeScript sources (the tests),
 * there is no compiled script to start, so it happens here, which still frees the cluster's own
 * WebAssembly memory once closed.
 */
export async function initPgliteDataDirApart(dataDir: string): Promise<void> {
  if (!script.endsWith('.js')) return initPgliteDataDir(dataDir);
  try {
    await promisify(execFile)(process.execPath, [script, dataDir], { maxBuffer: 4 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Could not create the PGlite database in ${dataDir}${stderr ? `: ${stderr}` : ''}`, {
      cause: error,
    });
  }
}

if (process.argv[1] === script) {
  const dataDir = process.argv[2];
  if (!dataDir) {
    process.stderr.write('usage: init-pglite <data dir>\n');
    process.exit(2);
  }
  initPgliteDataDir(dataDir).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
