import { REVIEW_PURPOSE } from './tools/review.js';
import { agents, conversationItems, type Db } from '@tandem/db';
import { and, eq, sql } from 'drizzle-orm';
import { join } from 'node:path';
import {
  AgentNetwork,
  createScrubber,
  prepareWorkspace,
  runRepoScript,
  type PreparedWorkspace,
  type Scrubber,
  type ShellSession,
  withWorkspaceLock,
} from '../sandbox/index.js';
import { readSealedSecrets, type SealedSecret } from './agent-row.js';
import { endOrphanedShells } from './ended-shells.js';
import { recordScriptLog } from './script-logs.js';
import type { NewItem } from './items.js';
import { PortTracker } from './ports.js';
import type { RuntimeDeps } from './runtime-deps.js';
import type { AgentRow, RepoInfo } from './tools/types.js';

export const SETUP_SCRIPT = '.tandem/setup.sh';
const SETUP_TIMEOUT_MS = 10 * 60_000;
/** Sandboxes stay warm this long after an agent pauses (docs: "about 5 minutes"). */
export const WARM_TTL_MS = 5 * 60_000;
/**
 * Warm sandboxes a runner keeps at most (TANDEM_WARM_SANDBOXES): each holds processes of its own
 * (namespace holder, slirp4netns, the agent's background jobs), and without a bound a burst of
 * agents pausing together held them all for the full TTL.
 */
export const WARM_MAX = 32;

export interface WarmSandbox {
  agentId: string;
  db: Db;
  workspace: PreparedWorkspace;
  shells: Map<number, { session: ShellSession; actionUuid: string; command: string }>;
  scrub: Scrubber;
  env: Record<string, string>;
  /** What the shells listen on, mirrored into the agent's `cur_ports`. */
  ports: PortTracker;
  /** The network namespace all of the agent's commands share (bubblewrap only). */
  network: AgentNetwork | null;
}

export const agentBranch = (agent: Pick<AgentRow, 'number'>) => `tandem-${agent.number}`;

/** Whether the agent pushed its branch: a commit item is written only after a successful push. */
async function hasPushed(db: Db, agent: Pick<AgentRow, 'id' | 'branch'>): Promise<boolean> {
  if (!agent.branch) return false;
  const [commit] = await db
    .select({ id: conversationItems.id })
    .from(conversationItems)
    .where(
      and(
        eq(conversationItems.agentId, agent.id),
        eq(conversationItems.itemType, 'commit'),
        sql`${conversationItems.data}->>'branch' = ${agent.branch}`,
      ),
    )
    .limit(1);
  return commit !== undefined;
}

/** The code-host token and the repository's secrets a sandbox runs with, and their scrubber. */
export interface SandboxSecrets {
  token: string;
  env: Record<string, string>;
  scrub: Scrubber;
}

/**
 * The sandbox's secrets: `sealed` when the run's start brought them (openAwakeAgent), else read.
 * A value that no longer opens (the secret key was rotated) throws rather than starting an agent
 * with a variable silently missing.
 */
export async function sandboxSecrets(
  deps: RuntimeDeps,
  repo: RepoInfo,
  sealed?: readonly SealedSecret[],
): Promise<SandboxSecrets> {
  const token = await deps.codeHost.installationToken(repo.installationId);
  const env: Record<string, string> = {};
  const { openSecret } = deps;
  if (openSecret)
    for (const secret of sealed ?? (await readSealedSecrets(deps.db, repo.id)))
      env[secret.key] = openSecret(secret.sealed);
  // The code-host token is secret too: it is in the clone's remote URL and in git's output.
  return { token, env, scrub: createScrubber([token, ...Object.values(env)]) };
}

/**
 * The branch a workspace is prepared on: its own branch once it pushed to it; until then the first
 * free name (`free`), so a branch that already exists on the code host (someone else's, or a
 * previous database's agent) is never taken over. A reviewer reads the person's pull request
 * branch itself (it has no tool that could push).
 */
export async function wantedBranch(db: Db, agent: AgentRow): Promise<string | { free: string }> {
  if (agent.purpose === REVIEW_PURPOSE && agent.branch) return agent.branch;
  if (await hasPushed(db, agent)) return agent.branch!;
  return { free: agent.branch ?? agentBranch(agent) };
}

/** The base branch a workspace is prepared from (a user's choice, else the repository's default). */
export const baseBranchOf = (agent: AgentRow, repo: RepoInfo) => agent.baseBranch ?? repo.defaultBranch;

/** The clone and its setup script, under the workspace's lock (prepareSandbox). */
async function prepareLocked(
  deps: RuntimeDeps,
  agent: AgentRow,
  repo: RepoInfo,
  emit: (item: NewItem) => Promise<unknown>,
  { token, env, scrub }: SandboxSecrets,
): Promise<PreparedWorkspace> {
  const workspace = await prepareWorkspace({
    root: deps.workspacesDir,
    agentId: agent.id,
    cloneUrl: `${deps.codeHost.webUrl.replace(/\/+$/, '')}/${repo.fullName}.git`,
    auth: { token },
    baseBranch: baseBranchOf(agent, repo),
    // Only a base someone chose is created when missing, not a stale default branch name.
    createBase: agent.baseBranch !== null,
    branch: await wantedBranch(deps.db, agent),
    author: { name: 'Tandem', email: 'tandem@users.noreply.github.com' },
    kind: deps.sandbox.kind,
  });
  if (!agent.baseBranch || agent.branch !== workspace.branch) {
    await deps.db
      .update(agents)
      .set({ baseBranch: agent.baseBranch ?? workspace.baseBranch, branch: workspace.branch })
      .where(eq(agents.id, agent.id));
    // The run's row as the database now has it: its first step may use this row unread again.
    agent.baseBranch ??= workspace.baseBranch;
    agent.branch = workspace.branch;
  }
  if (workspace.cloned) {
    const run = await runRepoScript(workspace, SETUP_SCRIPT, {
      env,
      timeoutMs: SETUP_TIMEOUT_MS,
      kind: deps.sandbox.kind,
      network: deps.sandbox.network,
      scrub,
    });
    if (run.exists) {
      await recordScriptLog(deps.db, { repositoryId: repo.id, agentId: agent.id }, run, scrub);
      await emit({
        itemType: 'action',
        actionType: 'ActivitySummaryEvent',
        data: {
          action_type: 'ActivitySummaryEvent',
          summary: `Ran ${SETUP_SCRIPT} (exit ${run.statusCode})`,
          script_log: run.output.slice(-20_000),
          script_status: run.statusCode === 0 ? 'success' : 'failure',
        },
      });
    }
  }
  return workspace;
}

/**
 * Clones (or reuses) the agent's workspace and runs the repository's setup script on a fresh clone.
 * `secrets` are the run's own (read once, so what the model saw before the sandbox was ready is
 * scrubbed with the same values).
 */
export async function prepareSandbox(
  deps: RuntimeDeps,
  agent: AgentRow,
  repo: RepoInfo,
  emit: (item: NewItem) => Promise<unknown>,
  secrets?: SandboxSecrets,
): Promise<WarmSandbox> {
  // A fresh sandbox: any shell the feed still shows running belonged to one that is gone.
  await endOrphanedShells(deps.db, { agentId: agent.id });
  const { env, scrub } = (secrets ??= await sandboxSecrets(deps, repo));
  // Another worker process sharing the workspaces directory may be preparing this agent's clone
  // (a run it ended left it going): wait for it, then reuse what it made.
  const workspace = await withWorkspaceLock(deps.workspacesDir, agent.id, () =>
    prepareLocked(deps, agent, repo, emit, secrets),
  );
  // Created last, so a failed clone or setup leaves no namespace behind.
  const network =
    deps.sandbox.kind === 'bubblewrap' ? await AgentNetwork.create({ internet: deps.sandbox.network }) : null;
  if (network?.detail) deps.logger.warn({ agentId: agent.id }, `agent network: ${network.detail}`);
  const ports = new PortTracker(deps.db, agent.id, deps.sandbox.host, network);
  return { agentId: agent.id, db: deps.db, workspace, shells: new Map(), scrub, env, ports, network };
}

export async function disposeSandbox(sandbox: WarmSandbox): Promise<void> {
  await Promise.all([...sandbox.shells.values()].map((s) => s.session.stop().catch(() => undefined)));
  sandbox.shells.clear();
  // Nobody reads the stopped shells any more: tell the feed they ended. The database may already be
  // closing when the whole process stops; the next start-up writes the messages then.
  await endOrphanedShells(sandbox.db, { agentId: sandbox.agentId }).catch(() => undefined);
  await sandbox.ports.clear();
  await sandbox.network?.dispose();
}

export const workspacesDirOf = (dataDir: string) => join(dataDir, 'workspaces');
