import { join } from 'node:path';
import { runCommand } from '@tandem/agent';
import { startCodeHost, type LocalCiOptions, type RunningCodeHost } from '@tandem/codehost';
import type { Logger } from 'pino';
import type { Config, GitHubAppConfig } from '../config/schema.js';
import type { CodeHostGateway } from './gateway.js';
import { createOctokitGateway } from './octokit-gateway.js';

export interface CodeHostSetup {
  gateway: CodeHostGateway;
  app: GitHubAppConfig;
  /** The embedded local code host, when no external GitHub is configured. */
  local: RunningCodeHost | undefined;
}

/**
 * The local code host's CI runs workflow steps in the agents' sandbox, as TANDEM_SANDBOX says
 * (auto: bubblewrap when the machine has it, else a plain process with a scrubbed environment):
 * workflow files are as hostile as any repository content. The code host cannot import the agent
 * package itself, so the runner is handed to it here.
 */
export function localCiOptions(sandbox: Config['agents']['sandbox'] = 'auto'): LocalCiOptions {
  return {
    runner: (command) => runCommand({ ...command, ...(sandbox === 'auto' ? {} : { kind: sandbox }) }),
  };
}

/**
 * Real GitHub (or GHE) when configured; otherwise the local code host is started beside the server
 * and its generated App credentials are used. Past this point nothing knows which it is.
 */
export async function setUpCodeHost(config: Config, logger: Logger): Promise<CodeHostSetup> {
  // Rate-limit warnings ('Request quota exhausted', …) go to the server log with their context.
  const clientLogger = {
    warn: (message: string, details?: Record<string, unknown>) => logger.warn(details ?? {}, message),
  };
  if (config.github.kind === 'external') {
    return {
      gateway: createOctokitGateway({ ...config.github, logger: clientLogger }),
      app: config.github,
      local: undefined,
    };
  }
  const local = await startCodeHost({
    dataDir: join(config.dataDir, 'codehost'),
    port: config.github.codehostPort,
    host: config.host,
    logger: logger.child({ component: 'codehost' }),
    ...(config.github.codehostCi ? { ci: localCiOptions(config.agents.sandbox) } : {}),
  });
  const { credentials } = local;
  const app: GitHubAppConfig = {
    apiUrl: local.apiUrl,
    webUrl: local.url,
    appId: credentials.appId,
    appSlug: credentials.slug,
    privateKey: credentials.privateKey,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    webhookSecret: credentials.webhookSecret,
  };
  return { gateway: createOctokitGateway({ ...app, logger: clientLogger }), app, local };
}
