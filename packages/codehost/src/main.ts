#!/usr/bin/env node
import { resolve } from 'node:path';
import pino from 'pino';
import { startCodeHost } from './index.js';

/** The local code host on its own: CODEHOST_PORT, CODEHOST_DATA_DIR, CODEHOST_WEBHOOK_URL, CODEHOST_SETUP_URL. */
const port = Number(process.env.CODEHOST_PORT ?? 8081);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(
    `Invalid configuration: CODEHOST_PORT must be a port number, got "${process.env.CODEHOST_PORT}"\n`,
  );
  process.exit(2);
}
const host = await startCodeHost({
  dataDir: resolve(process.env.CODEHOST_DATA_DIR ?? '.tandem/codehost'),
  port,
  ...(process.env.CODEHOST_WEBHOOK_URL ? { webhookUrl: process.env.CODEHOST_WEBHOOK_URL } : {}),
  ...(process.env.CODEHOST_SETUP_URL ? { setupUrl: process.env.CODEHOST_SETUP_URL } : {}),
  logger: pino({ level: process.env.LOG_LEVEL ?? 'info' }),
});
process.stdout.write(`Tandem code host is running at ${host.url}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void host.close().then(() => process.exit(0));
  });
}
