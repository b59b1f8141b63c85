import type { Db } from '@tandem/db';
import type { GitHubClient } from '@tandem/github';
import type { ModelEnv } from '../model/index.js';
import type { SandboxKind } from '../sandbox/index.js';
import type { SupervisionHost } from './tools/index.js';
import type { prepareSandbox } from './warm-sandbox.js';

export interface RuntimeLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/** Everything a run needs from outside; the same for the embedded runner and `tandem worker`. */
export interface RuntimeDeps {
  db: Db;
  logger: RuntimeLogger;
  models: ModelEnv;
  codeHost: {
    webUrl: string;
    installationToken(installationId: number): Promise<string>;
    installationOctokit(installationId: number): GitHubClient;
  };
  workspacesDir: string;
  /** `host`: the address other servers reach this machine's sandbox ports at (previews). */
  sandbox: { kind: SandboxKind; network: boolean; host?: string };
  /**
   * Opens a repository secret's stored value (the server's secret box). The secrets are the
   * sandbox's environment, scrubbed from all output; without this a sandbox runs without them.
   */
  openSecret?: (sealed: string) => string;
  /** A run stops after this many model calls and waits for the user (a runaway guard). */
  maxModelCalls?: number;
  /**
   * Told after a charge that may call for an auto-fill (ChargeResult.autoFillDue; billing claims
   * and buys it); must not throw.
   */
  afterCharge?: (installationId: number) => void;
  /** Supervisor agents' sub-agents (the server's services); without it their tools refuse. */
  supervision?: SupervisionHost;
  /** Prepares a fresh sandbox (default prepareSandbox; tests hold it back or fail it). */
  prepareSandbox?: typeof prepareSandbox;
}
