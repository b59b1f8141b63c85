#!/usr/bin/env node
import { resolve } from 'node:path';
import pino from 'pino';
import { processRunner, startCodeHost } from './index.js';

/**
 * The local code host on its own: CODEHOST_PORT, CODEHOST_DATA_DIR, CODEHOST_WEBHOOK_URL,
 * CODEHOST_SETUP_URL, and CODEHOST_CI=process to run workflows as plain, unsandboxed processes
 * (only for repositories you trust: the product runs the code host with its bubblewrap sandbox).
 */
const port = Number(process.env.CODEHOST_PORT ?? 8081);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(
    `Invalid configuration: CODEHOST_PORT must be a port number, got "${process.env.CODEHOST_PORT}"\n`,
  );
  process.exit(2);
}
const ciMode = process.env.CODEHOST_CI ?? 'off';
if (ciMode !== 'off' && ciMode !== 'process') {
  process.stderr.write(`Invalid configuration: CODEHOST_CI must be off or process, got "${ciMode}"\n`);
  process.exit(2);
}
const host = await startCodeHost({
  dataDir: resolve(process.env.CODEHOST_DATA_DIR ?? '.tandem/codehost'),
  port,
  ...(process.env.CODEHOST_WEBHOOK_URL ? { webhookUrl: process.env.CODEHOST_WEBHOOK_URL } : {}),
  ...(process.env.CODEHOST_SETUP_URL ? { setupUrl: process.env.CODEHOST_SETUP_URL } : {}),
  logger: pino({ level: process.env.LOG_LEVEL ?? 'info' }),
  ...(ciMode === 'process' ? { ci: { runner: processRunner } } : {}),
});
process.stdout.write(`Tandem code host is running at ${host.url}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void host.close().then(() => process.exit(0));
  });
}
