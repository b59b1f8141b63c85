import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createScrubber, type Scrubber } from '../sandbox/index.js';
import { backgroundPrepares, backgroundQuiet, confirmationQuiet } from './background-limit.js';
import type { SealedSecret } from './agent-row.js';
import type { NewItem } from './items.js';
import {
  askPromptFacts,
  type AssumedFacts,
  type FactsConfirmation,
  type PromptFacts,
} from './prompt-facts.js';
import type { QuietGate } from './quiet-gate.js';
import { readRepoInstructions } from './repo-instructions.js';
import type { RuntimeDeps } from './runtime-deps.js';
import { startAutoScripts, startRequestedScripts } from './start-scripts.js';
import type { AgentRow, RepoInfo, ToolContext } from './tools/index.js';
import {
  disposeSandbox,
  prepareSandbox,
  sandboxSecrets,
  type SandboxSecrets,
  type WarmSandbox,
} from './warm-sandbox.js';

/** Without a sandbox yet there are no secret values to mask, but URL credentials still are. */
export const urlCredentialsOnly = createScrubber([]);

/** The runner's warm sandboxes, as one run sees them. */
export interface RunnerSandboxes {
  /** The agent's warm sandbox, if any (after any preparation a previous run left going). */
  take(): Promise<WarmSandbox | undefined>;
  /**
   * Keeps it warm; one still being prepared is kept once ready, without the run waiting. `hurry`
   * lets a preparation still held back for a quiet server start at once (the next run needs it).
   */
  keep(sandbox: WarmSandbox | Promise<WarmSandbox>, hurry?: () => void): void;
  /** Asks for a run at `at` (the runner's timer); earlier runs find the agent still waiting. */
  wakeAt(at: Date): void;
  /** Aborted when the runner stops: a preparation still queued then never starts. */
  closed?: AbortSignal;
}

/** What a run's sandbox needs of the run (run-agent.ts). */
export interface SandboxRun {
  deps: RuntimeDeps;
  agentId: string;
  signal: AbortSignal;
  warm: RunnerSandboxes;
  emit(item: NewItem): Promise<unknown>;
  /** The tool context repository scripts run with. */
  scriptContext(sandbox: WarmSandbox): Promise<ToolContext>;
  /** Re-reads the agent's row (preparing a workspace writes its branch). */
  refreshAgent(): Promise<unknown>;
}

/** What the prompt takes from a ready sandbox's checkout. */
async function factsOf(sandbox: WarmSandbox): Promise<PromptFacts> {
  const { branch, baseBranch, dir } = sandbox.workspace;
  return { branch, baseBranch, instructions: await readRepoInstructions(dir) };
}

/** The promise's value, or null once the signal aborts first. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise<T | null>((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Waits for a quiet server before background work (background-limit.ts), or less: when hurried,
 * or when the run or the runner stops (a preparation then fails at once, as before).
 */
async function untilQuiet(
  gate: QuietGate,
  hurried: Promise<void>,
  stops: (AbortSignal | undefined)[],
): Promise<void> {
  let stopped!: () => void;
  const onStop = new Promise<void>((resolve) => (stopped = resolve));
  const signals = stops.filter((signal): signal is AbortSignal => signal !== undefined);
  if (signals.some((signal) => signal.aborted)) return;
  for (const signal of signals) signal.addEventListener('abort', stopped, { once: true });
  try {
    await gate.wait(Promise.race([hurried, onStop]));
  } finally {
    for (const signal of signals) signal.removeEventListener('abort', stopped);
  }
}

/**
 * One run's sandbox: a warm one taken from the runner, or a fresh one prepared in the background
 * while the first model request goes out. Tools wait for it (`ready`); the prompt's facts come
 * from the code host meanwhile (`promptFacts`); `held()` is what the runner keeps warm at the end.
 */
export class RunSandbox {
  /** The run's sandbox, once a tool (or the run's start) had it. */
  private sandbox: WarmSandbox | undefined;
  /** A fresh sandbox being prepared in the background (its repository scripts started after it). */
  private preparing: Promise<WarmSandbox> | undefined;
  /** Set when `preparing` resolved, whether or not anything awaited it yet. */
  private prepared: WarmSandbox | undefined;
  /** Masks the sandbox's secrets in all the model and the feed see; known before the sandbox is. */
  scrub: Scrubber = urlCredentialsOnly;
  /**
   * What the prompt takes from the repository: the checkout's branches and its `.tandem/README.md`
   * (read once per run: the agent may edit it meanwhile). Known at once with a warm sandbox; asked
   * of the code host while a fresh clone is made (prompt-facts.ts), else read from the clone.
   */
  private facts: Promise<PromptFacts | null> | undefined;
  /** Facts the prompt assumed and no model call has had confirmed yet (prompt-facts.ts). */
  private assumed: AssumedFacts | undefined;
  /** Lets a preparation held back for a quiet server start at once (a tool needs it now). */
  private hurry: () => void = () => undefined;

  constructor(private readonly run: SandboxRun) {}

  /**
   * A warm sandbox is used at once. A fresh clone is prepared in the background while the first
   * model request goes out, when what the prompt takes from the clone can be had from the code
   * host's API instead (prompt-facts.ts); tools wait for it (ready). Otherwise the run waits
   * for it as before: a reused clone (its branch may hold work the code host has not seen), a run
   * only for scripts, or an API that could not say for sure.
   */
  async setUp(
    agent: AgentRow,
    repo: RepoInfo,
    awake: boolean,
    /** The repository's secrets, when the run's start brought them. */
    sealedSecrets?: readonly SealedSecret[],
  ): Promise<void> {
    const warm = await this.run.warm.take();
    if (warm) {
      this.sandbox = warm;
      this.scrub = warm.scrub;
      await startRequestedScripts(this.run.deps.db, this.run.agentId, warm, () =>
        this.run.scriptContext(warm),
      );
      this.facts = Promise.resolve(await factsOf(warm));
      return;
    }
    const fresh = !existsSync(join(this.run.deps.workspacesDir, agent.id, '.git'));
    const secrets = await sandboxSecrets(this.run.deps, repo, sealedSecrets);
    this.scrub = secrets.scrub;
    if (!(fresh && awake)) {
      this.startPreparing(this.prepare(agent, repo, secrets));
      this.facts = this.factsFromSandbox();
      await this.facts;
      return;
    }
    // The code host answers these few reads first: the clone, asked for at the same moment,
    // competes with them for the code host (measured: 30 ms alone, 300 ms beside a clone here).
    // Neither the clone nor the model request waits for the other after that.
    const octokit = this.run.deps.codeHost.installationOctokit(repo.installationId);
    const asked = askPromptFacts(this.run.deps.db, octokit, agent, repo);
    const hurried = new Promise<void>((resolve) => (this.hurry = resolve));
    this.startPreparing(
      asked
        // It waits for a quiet server before taking a turn, unless a tool needs it now: a held
        // preparation must not keep a turn idle that a hurried one queues for.
        .then(() => untilQuiet(backgroundQuiet, hurried, [this.run.signal, this.run.warm.closed]))
        .then(() =>
          backgroundPrepares.run(async () => {
            // Queued behind other agents' clones while this run was stopped, or the runner was.
            if (this.run.signal.aborted || this.run.warm.closed?.aborted)
              throw new Error('stopped before its sandbox was prepared');
            return this.prepare(agent, repo, secrets);
          }),
        ),
    );
    this.facts = asked.then(async (answer) => {
      this.assumed = answer?.assumed;
      return answer?.facts ?? this.factsFromSandbox();
    });
    // Rejects only when the model call needed the clone and preparing it failed: reported there.
    this.facts.catch(() => undefined);
  }

  private startPreparing(preparing: Promise<WarmSandbox>): void {
    this.preparing = preparing;
    // Awaited by the first tool, or handed to the runner: never an unhandled rejection meanwhile.
    preparing.then(
      (sandbox) => (this.prepared = sandbox),
      () => undefined,
    );
  }

  /** The prompt's facts read from the clone, once it is ready (null when the run stops first). */
  private async factsFromSandbox(): Promise<PromptFacts | null> {
    const sandbox = await this.ready();
    return sandbox ? factsOf(sandbox) : null;
  }

  /** A fresh sandbox with the repository's run/auto scripts and the requested ones started. */
  private async prepare(agent: AgentRow, repo: RepoInfo, secrets: SandboxSecrets): Promise<WarmSandbox> {
    const prepare = this.run.deps.prepareSandbox ?? prepareSandbox;
    const sandbox = await prepare(this.run.deps, agent, repo, this.run.emit, secrets);
    try {
      await startAutoScripts(sandbox, () => this.run.scriptContext(sandbox));
      await startRequestedScripts(this.run.deps.db, this.run.agentId, sandbox, () =>
        this.run.scriptContext(sandbox),
      );
    } catch (error) {
      // Nobody may hold it after this failure (the run may have ended): it is disposed here.
      await disposeSandbox(sandbox).catch(() => undefined);
      throw error;
    }
    return sandbox;
  }

  /**
   * The sandbox, waiting for its preparation if needed (null when the run is stopped meanwhile).
   * A failed preparation throws here: it becomes the run's error.
   */
  async ready(): Promise<WarmSandbox | null> {
    if (this.sandbox) return this.sandbox;
    this.hurry();
    const sandbox = await unlessAborted(this.preparing!, this.run.signal);
    if (!sandbox) return null;
    this.sandbox = sandbox;
    // Preparing wrote the agent's branch: tools see the row as it is now.
    await this.run.refreshAgent();
    return sandbox;
  }

  /**
   * The prompt's facts for this model call (null when the run stops while they are awaited):
   * the branches are the workspace's once it exists, the instructions those read at the start.
   */
  async promptFacts(): Promise<PromptFacts | null> {
    // A stop must not wait for the code host's answers (they are not aborted with the run).
    const facts = await unlessAborted(this.facts!, this.run.signal);
    const workspace = (this.sandbox ?? this.prepared)?.workspace;
    if (!facts || !workspace) return facts;
    return { ...facts, branch: workspace.branch, baseBranch: workspace.baseBranch };
  }

  /**
   * The check of the facts the last promptFacts() gave, when they were assumed (undefined when
   * they were not, or a call already had them checked): it waits for a quiet server, so that many
   * agents starting together send their model requests first, unless hurried. A workspace ready
   * meanwhile is the truth; else the code host's API; else, when that cannot say, the clone.
   */
  confirmation(): FactsConfirmation | undefined {
    const assumed = this.assumed;
    if (!assumed) return undefined;
    this.assumed = undefined;
    let hurry!: () => void;
    const hurried = new Promise<void>((resolve) => (hurry = resolve));
    const check = async (): Promise<boolean | null> => {
      await untilQuiet(confirmationQuiet, hurried, [this.run.signal, this.run.warm.closed]);
      if (this.run.signal.aborted) return null;
      const workspace = (this.sandbox ?? this.prepared)?.workspace;
      const actual = workspace
        ? { ...assumed.facts, branch: workspace.branch }
        : ((await assumed.confirm()) ?? (await this.factsFromSandbox()));
      if (!actual) return null;
      if (actual.branch === assumed.facts.branch) return true;
      assumed.refuted();
      this.facts = Promise.resolve(actual);
      return false;
    };
    // A stop must not wait for the code host's answer (it is not aborted with the run).
    const confirmed = unlessAborted(check(), this.run.signal);
    // Awaited by the model call, which may have ended first (an error, a stop).
    confirmed.catch(() => undefined);
    return { confirmed, hurry };
  }

  /** What the runner keeps warm when the run ends: one still being prepared is kept once ready. */
  held(): WarmSandbox | Promise<WarmSandbox> | undefined {
    return this.sandbox ?? this.preparing;
  }

  /** Starts a preparation held back for a quiet server at once (nothing when there is none). */
  hurryPreparation(): void {
    this.hurry();
  }
}
