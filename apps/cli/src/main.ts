#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { processContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { buildProgram } from './program.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// `tandem view ID | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

try {
  await buildProgram(processContext(version)).parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help, or the version).
    process.exitCode = error.exitCode;
  } else if (error instanceof CliError) {
    process.stderr.write(`tandem: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    // A bug: still one line by default, the stack only when asked for.
    process.stderr.write(`tandem: unexpected error: ${(error as Error).message ?? String(error)}\n`);
    if (process.env.TANDEM_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    process.exitCode = EXIT.generic;
  }
}
