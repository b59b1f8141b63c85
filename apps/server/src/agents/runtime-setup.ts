import { join } from 'node:path';
import { detectSandbox, EmbeddedRunner, type AgentRunner } from '@tandem/agent';
import type { Db } from '@tandem/db';
import { createAppAuthProvider } from '@tandem/github';
import type { Logger } from 'pino';
import type { AgentsConfig, GitHubAppConfig, ModelsConfig } from '../config/schema.js';
import { modelEnv } from '../routes/models.js';

export interface AgentRuntimeOptions {
  db: Db;
  logger: Logger;
  dataDir: string;
  app: GitHubAppConfig;
  models: ModelsConfig;
  agents: AgentsConfig;
  /** Octokit's write spacing (1 s) is right for GitHub and only slows tests. */
  throttle?: boolean;
}

/**
 * The embedded runner: agents run in this process, one run per agent at a time, and runs left
 * queued or running by a previous process start again.
 */
export async function createAgentRuntime(
  options: AgentRuntimeOptions,
): Promise<{ runner: AgentRunner & EmbeddedRunner; sandbox: string }> {
  const logger = options.logger.child({ component: 'agents' });
  const support = await detectSandbox(
    options.agents.sandbox === 'auto' ? {} : { force: options.agents.sandbox },
  );
  if (options.agents.sandbox === 'bubblewrap' && support.kind !== 'bubblewrap') {
    throw new Error(`TANDEM_SANDBOX=bubblewrap but bubblewrap does not work here: ${support.detail}`);
  }
  const auth = createAppAuthProvider({
    appId: options.app.appId,
    privateKey: options.app.privateKey,
    baseUrl: options.app.apiUrl,
    throttle: options.throttle ?? true,
    logger: { warn: (message, details) => logger.warn(details ?? {}, message) },
  });
  const runner = new EmbeddedRunner(
    {
      db: options.db,
      logger,
      models: modelEnv(options.models),
      codeHost: {
        webUrl: options.app.webUrl,
        installationToken: (id) => auth.installationToken(id),
        installationOctokit: (id) => auth.installationOctokit(id),
      },
      workspacesDir: join(options.dataDir, 'workspaces'),
      sandbox: { kind: support.kind, network: options.agents.network },
    },
    { concurrency: options.agents.concurrency },
  );
  return { runner, sandbox: `${support.kind} (${support.detail})` };
}
