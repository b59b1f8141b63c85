#!/usr/bin/env node
import { DataDirLockedError } from '@tandem/db';
import { lowerHelperThreadPriority, releaseMemoryWhenIdle } from '@tandem/process';
import { ConfigError, loadConfig, type Config } from './config/schema.js';
import { createLogger } from './logger.js';
import { startServer } from './serve.js';
import { startupErrorMessage } from './startup-error.js';
import { startWorker } from './worker.js';

const USAGE = 'usage: tandem-server [serve|worker]';

function configOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** Stops on SIGINT/SIGTERM within 10 s; a second signal exits at once. */
function stopOnSignals(logger: ReturnType<typeof createLogger>, close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`Received ${signal} again: exiting now.\n`);
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown took longer than 10 s: exiting');
      process.exit(1);
    }, 10_000);
    deadline.unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? 'serve';
  if (command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command !== 'serve' && command !== 'worker') {
    process.stderr.write(`Unknown command "${command}". ${USAGE}\n`);
    process.exit(2);
  }

  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  // Before the first request: V8's compiler and GC threads yield to the event loop and the
  // database's thread when the cores are busy (docs/decisions.md "V8's helper threads").
  const helpers = lowerHelperThreadPriority(config.helperThreadNice);
  logger.debug({ threads: helpers.threads, reason: helpers.reason }, "V8's helper threads");
  // What a burst of work grew is given back once the process falls quiet (docs/decisions.md
  // "Memory given back after a burst"); the watcher's timer does not keep the process alive.
  if (config.idleMemoryReleaseMb > 0)
    releaseMemoryWhenIdle({
      growthMb: config.idleMemoryReleaseMb,
      onRelease: (release) => logger.debug(release, 'gave memory back after a quiet spell'),
    });
  try {
    if (command === 'worker') {
      const worker = await startWorker(config, logger);
      process.stdout.write('Tandem agent worker is running\n');
      stopOnSignals(logger, () => worker.close());
      return;
    }
    const server = await startServer(config, logger);
    process.stdout.write(`Tandem is running at ${server.url} (database: ${server.database.kind})\n`);
    if (server.codeHostUrl)
      process.stdout.write(`Local code host (GitHub stand-in) at ${server.codeHostUrl}\n`);
    stopOnSignals(logger, () => server.close());
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    // The full error stays in the log; the person starting Tandem reads one line that says what to do.
    logger.fatal({ err: error }, 'failed to start');
    process.stderr.write(`${startupErrorMessage(error, config)}\n`);
    process.exit(1);
  }
}

await main(process.argv.slice(2));
