import { openDatabase, type Database } from '@tandem/db';
import type { Logger } from 'pino';
import { buildApp, type App } from './app.js';
import { resolveSecretKey } from './auth/secret-key.js';
import type { Config } from './config/schema.js';

export interface RunningServer {
  app: App;
  database: Database;
  url: string;
  close(): Promise<void>;
}

/** Opens the database (applying migrations), builds the app and listens. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const database = await openDatabase(config.database);
  try {
    if (database.kind === 'postgres' && !config.secretKey) {
      logger.warn('TANDEM_SECRET_KEY is not set: sessions will not be valid across several servers');
    }
    const secretKey = resolveSecretKey(config.secretKey, config.dataDir);
    const app = await buildApp({ config, database, secretKey, logger });
    await app.server.listen({ port: config.port, host: config.host });
    const address = app.server.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = config.publicUrl ?? `http://localhost:${port}`;
    let closing: Promise<void> | undefined;
    return {
      app,
      database,
      url,
      close: () => {
        closing ??= app.server.close().then(() => database.close());
        return closing;
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
