#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { CliApiError } from './api.js';
import { buildProgram } from './program.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

try {
  await buildProgram(version).parseAsync(process.argv);
} catch (error) {
  if (error instanceof CliApiError) {
    process.stderr.write(`tandem: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
