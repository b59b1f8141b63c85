import { agents, prepared } from '@tandem/db';
import { LEDGER_UNITS_PER_CREDIT } from '@tandem/shared';
import type { ModelMessage, ToolCallPart } from 'ai';
import { and, eq, ne, sql } from 'drizzle-orm';
import { resolveModel } from '../model/index.js';
import { autoReview } from './auto-review.js';
import { chargeCall, pricedCall, type CallUsage, type ReadyModel } from './call-charge.js';
import { callModel } from './call-model.js';
import { appendSpice, pendingToolCalls, RunHistory, type StoredSpice, type UnfedMessage } from './history.js';
import { syncUserMessages } from './fed-messages.js';
import { actionItem, appendItem, type NewItem } from './items.js';
import { beginWait, endWait } from './wait.js';
import { clearStaleInterrupt, FAILED_STATUS, isAsleep, isoNow, stoppedByAdmin } from './asleep.js';
import { needsModel } from './message-shape.js';
import { RunSandbox, type RunnerSandboxes } from './run-sandbox.js';
import type { RuntimeDeps } from './runtime-deps.js';
import { loggableError } from './loggable-error.js';
import { summarizeContext } from './summarize.js';
import { executeToolCall, scriptToolContext, type ToolScope } from './tool-call.js';
import type { AgentRow, SubAgentOutcome } from './tools/index.js';
import {
  openAwakeAgent,
  readRunRow,
  readStepRow,
  requesterOf,
  type Requester,
  type RunRepo,
  type SealedSecret,
  type StepRow,
} from './agent-row.js';

export const OUT_OF_CREDITS_MESSAGE = 'Your installation is out of credits. Buy more now.';

type RunEnd = 'idle' | 'interrupted' | 'waiting';

/** Abort reasons: a user's interrupt ends the run; a shutdown leaves it queued for the next start. */
export const USER_INTERRUPT = 'interrupt';
export const SHUTDOWN = 'shutdown';

export class AgentRun {
  private agent!: AgentRow;
  /** Whom the agent works for, as of the step's refreshAgent(). */
  private requester!: Requester;
  /** The run's sandbox: warm, being prepared in the background, or ready (run-sandbox.ts). */
  private readonly box: RunSandbox;
  /** Set when this run's wait tool ended it. */
  private waitingUntil: Date | null = null;
  private repo!: RunRepo;
  /** What the run's first step reads, when the run's start brought it (openAwakeAgent). */
  private firstStep: StepRow | null = null;
  /** The user messages not yet fed to the model, as the step's read found them (syncMessages). */
  private unfed: UnfedMessage[] = [];
  /** Whether the model was at work in this run (a sub-agent then reports how it ended). */
  private worked = false;
  /** Set when task_complete ended the run. */
  private completed = false;
  private failure: string | null = null;
  /** Whether a final answer may set the agent idle itself (no wait to go back to: recordAnswer). */
  private mayEndAtAnswer = false;
  /** Set when the answer's statement set the agent idle: the run ends without another write. */
  private endedAtAnswer = false;

  constructor(
    private readonly deps: RuntimeDeps,
    private readonly agentId: string,
    private readonly signal: AbortSignal,
    private readonly warm: RunnerSandboxes,
  ) {
    this.box = new RunSandbox({
      deps,
      agentId,
      signal,
      warm,
      emit: (item) => this.emit(item),
      scriptContext: async (sandbox) =>
        scriptToolContext(this.toolScope(), sandbox, await requesterOf(this.deps.db, this.agent)),
      refreshAgent: () => this.refreshAgent(),
    });
  }

  private emit = (item: NewItem) => appendItem(this.deps.db, this.agentId, item);

  /**
   * The run's status. An admin's Fail holds: only a message (or an admin's restart) lifts 'failed'
   * (see asleep.ts). Going idle ('paused') also clears a Stop asked for since the run last looked:
   * nothing is left to stop, and left set it would end the agent's next run at once
   * (docs/decisions.md "A Stop that meets the end of a run").
   */
  private async setStatus(status: string) {
    await prepared(this.deps.db, 'set_agent_status', (db, name) =>
      db
        .update(agents)
        .set({
          status: sql`${sql.placeholder('status')}`,
          interruptRequested: sql`case when ${sql.placeholder('status')}::text = 'paused' then false
            else ${agents.interruptRequested} end`,
        })
        .where(and(eq(agents.id, sql.placeholder('agentId')), ne(agents.status, FAILED_STATUS)))
        .prepare(name),
    ).execute({ status, agentId: this.agentId });
  }

  /**
   * The run's start: the agent read and set 'open' when it is to run, else what a run of an asleep
   * or waiting agent does (null: the run ends here). An awake agent, the usual case, takes one
   * statement (openAwakeAgent) that also brings what the first step reads.
   */
  private async begin(): Promise<{
    agent: AgentRow;
    waitingUntil: Date | null;
    awake: boolean;
    /** What openAwakeAgent brought besides: the repository's secrets, whether there is a context. */
    opened?: { secrets: SealedSecret[]; hasContext: boolean };
  } | null> {
    const { db } = this.deps;
    const opened = await openAwakeAgent(db, this.agentId);
    if (opened) {
      this.firstStep = opened;
      return (await this.useRow(opened.agent, opened.repo))
        ? { agent: opened.agent, waitingUntil: null, awake: true, opened }
        : null;
    }
    const row = await readRunRow(db, this.agentId);
    if (!row || row.agent.archived) return null;
    const { agent } = row;
    if (!(await this.useRow(agent, row.repo))) return null;
    // A paused agent wakes on a message; a waiting one also when its time is up. A run asked for
    // otherwise (Run Scripts, a restart, a stale wake) leaves the model asleep, and without
    // scripts to start it ends before any sandbox is prepared.
    let waitingUntil = agent.wakeAt;
    let awake = !isAsleep(agent.status) && !waitingUntil;
    if (!awake) {
      if (agent.interruptRequested) await clearStaleInterrupt(db, this.agentId);
      const news = (await syncUserMessages(db, this.agentId)).length > 0;
      const due = waitingUntil !== null && waitingUntil.getTime() <= Date.now();
      if (waitingUntil && (due || news)) {
        await endWait(db, this.agentId, due ? 'woke' : 'message');
        waitingUntil = null;
      }
      awake = news || due;
      if (!awake && !agent.pendingScripts.length) {
        if (!waitingUntil) return null;
        this.warm.wakeAt(waitingUntil);
        await this.setStatus('waiting');
        return null;
      }
    }
    await this.setStatus('open');
    return { agent, waitingUntil, awake };
  }

  /** Takes the run's agent and repository; without a repository the run ends with an error. */
  private async useRow(agent: AgentRow, repo: RunRepo | null): Promise<boolean> {
    this.agent = agent;
    if (!repo) {
      await this.emit(actionItem('ErrorEvent', { exception: 'This agent has no repository to work in.' }));
      await this.setStatus('paused');
      return false;
    }
    this.repo = repo;
    return true;
  }

  async run(): Promise<void> {
    const { db } = this.deps;
    const startedAt = isoNow();
    const start = await this.begin();
    if (!start) return;
    const { agent } = start;
    let { waitingUntil } = start;
    const { awake } = start;
    let end: RunEnd | undefined;
    try {
      const model = resolveModel(agent.model, this.deps.models);
      if (!model.ok) {
        this.worked = true;
        this.failure = model.reason;
        await syncUserMessages(db, this.agentId);
        await this.emit(actionItem('ErrorEvent', { exception: model.reason }));
        return;
      }
      await this.box.setUp(agent, this.repo, awake, start.opened?.secrets);
      this.mayEndAtAnswer = waitingUntil === null;
      // A paused agent is woken by a message only: a run asked for by Run Scripts starts the
      // scripts and leaves the model (and any steps it had left) alone.
      // A new agent has no context yet: its first step reads none.
      end = await this.loop(model, awake, start.opened?.hasContext === false);
      if (end === 'interrupted' && this.signal.reason !== SHUTDOWN) {
        await db.update(agents).set({ interruptRequested: false }).where(eq(agents.id, this.agentId));
        if (waitingUntil) await db.update(agents).set({ wakeAt: null }).where(eq(agents.id, this.agentId));
        waitingUntil = null;
        // An admin's Stop or Fail wrote its own item: "Paused by the user" would misname who.
        if (!(await stoppedByAdmin(db, this.agentId, startedAt)))
          await this.emit(actionItem('InterruptEvent'));
      }
      if (end === 'waiting') waitingUntil = this.waitingUntil;
    } catch (error) {
      if (this.signal.reason === SHUTDOWN) return;
      this.deps.logger.error(
        { err: loggableError(error, this.box.scrub), agentId: this.agentId },
        'agent run failed',
      );
      const message = error instanceof Error ? error.message : String(error);
      this.failure = this.box.scrub(message);
      await this.emit(actionItem('ErrorEvent', { exception: this.failure }));
    } finally {
      // A sandbox still being prepared is not waited for: the runner keeps it warm once it is ready.
      const keep = this.box.held();
      if (keep) this.warm.keep(keep, () => this.box.hurryPreparation());
      if (this.signal.aborted && this.signal.reason === SHUTDOWN) await this.setStatus('pending');
      else if (waitingUntil) {
        // The run ends here: the slot is free while the agent waits.
        this.warm.wakeAt(waitingUntil);
        await this.setStatus('waiting');
      } else if (!this.endedAtAnswer) await this.setStatus('paused');
      const shutdown = this.signal.aborted && this.signal.reason === SHUTDOWN;
      if (agent.supervisorId && this.worked && !shutdown && !waitingUntil) await this.reportBack(end);
    }
  }

  /** A sub-agent's run ended (not a wait, not a shutdown): its supervisor hears how. */
  private async reportBack(end: RunEnd | undefined): Promise<void> {
    const outcome: SubAgentOutcome = this.failure
      ? 'failed'
      : end === 'interrupted'
        ? 'stopped'
        : this.completed
          ? 'completed'
          : 'paused';
    try {
      await this.deps.supervision?.reportBack(this.agentId, outcome, this.failure);
    } catch (error) {
      this.deps.logger.error({ err: error, agentId: this.agentId }, 'sub-agent report failed');
    }
  }

  private async loop(model: ReadyModel, awake: boolean, emptyContext: boolean): Promise<RunEnd> {
    const { db } = this.deps;
    const maxCalls = this.deps.maxModelCalls ?? 200;
    const context = new RunHistory(db, this.agentId);
    if (emptyContext) context.startEmpty();
    // Between a tool's result and the next model request: one read of the agent with its balance,
    // its requester and the user messages not yet fed, then what was added to the context.
    for (let calls = 0; ;) {
      const { balance } = await this.refreshAgent();
      if (this.signal.aborted || this.agent.interruptRequested) return 'interrupted';
      if (!awake) {
        if (!(await this.syncMessages()).length) return 'idle';
        awake = true;
      }
      this.worked = true;
      let history = await context.current();
      const pending = pendingToolCalls(history);
      if (pending.length) {
        const stop = await this.executeTools(pending);
        if (stop === 'complete') {
          this.completed = true;
          return 'idle';
        }
        if (stop === 'interrupted') return 'interrupted';
        if (stop === 'waiting') return 'waiting';
        continue;
      }
      // Fed only now: a user message must not land between a tool call and its result.
      const fed = await this.syncMessages();
      if (fed.length) history = await context.stored(fed);
      if (!needsModel(history)) return 'idle';
      if (balance <= 0) {
        await this.emit(actionItem('OutOfCreditsEvent', { summary: OUT_OF_CREDITS_MESSAGE }));
        return 'idle';
      }
      const budgetUnits = this.repo.creditLimit * LEDGER_UNITS_PER_CREDIT;
      if (this.agent.spentSinceMessage >= budgetUnits) {
        await this.emit({
          itemType: 'over_budget',
          actionType: 'OverBudgetEvent',
          data: { action_type: 'OverBudgetEvent', credit_limit: this.repo.creditLimit },
        });
        return 'idle';
      }
      if (calls >= maxCalls) {
        await this.emit(
          actionItem('ErrorEvent', {
            exception: `Stopped after ${maxCalls} model calls in one run. Message to continue.`,
          }),
        );
        return 'idle';
      }
      if (this.agent.curTokens > this.agent.summarizationLimit) {
        await summarizeContext({
          deps: this.deps,
          agentId: this.agentId,
          model,
          history,
          scrub: this.box.scrub,
          signal: this.signal,
          emit: this.emit,
          charge: this.charge,
        });
        context.invalidate();
        history = await context.current();
      }
      const answer = await this.callModel(model, history);
      // Asked again with the real branch: the guessed call is not counted (or stored, or charged).
      if (answer === 'stale') continue;
      calls += 1;
      if (answer === 'interrupted') return 'interrupted';
      if (answer === 'ended') {
        this.endedAtAnswer = true;
        return 'idle';
      }
      await context.answered(answer);
    }
  }

  /**
   * The agent's row, its installation's balance and whom it works for now, in one read. Read at
   * every step (the user may switch Automatic PR Creation while the agent works); the first step of
   * a run that openAwakeAgent started uses what that statement brought.
   */
  private async refreshAgent(): Promise<{ balance: number }> {
    const row = this.firstStep ?? (await readStepRow(this.deps.db, this.agentId));
    this.firstStep = null;
    if (!row) throw new Error(`agent ${this.agentId} is gone`);
    this.agent = row.agent;
    this.requester = row.requester;
    this.unfed = row.unfed;
    return { balance: row.balance };
  }

  /**
   * Feeds new user messages to the model; a new message restarts the budget (as stored). They are
   * the ones the step's read found: one that arrives later is fed at the next step, or by the run
   * its sender queues once this one ends (the runner runs an agent queued mid-run again).
   */
  private async syncMessages(): Promise<StoredSpice[]> {
    const unfed = this.unfed;
    this.unfed = [];
    if (!unfed.length) return [];
    // The row was read at this step's start, and only this run's charges change what it spent.
    const added = await syncUserMessages(this.deps.db, this.agentId, this.agent, unfed);
    if (added.length) this.agent = { ...this.agent, spentSinceMessage: 0 };
    return added;
  }

  /** One model call (call-model.ts), with the step's agent, requester and the prompt's facts. */
  private async callModel(
    model: ReadyModel,
    history: ModelMessage[],
  ): Promise<StoredSpice[] | 'interrupted' | 'ended' | 'stale'> {
    const requester = this.requester;
    const facts = await this.box.promptFacts();
    if (!facts) return 'interrupted';
    // Facts assumed for a new agent's first prompt are checked while the model works.
    const confirmation = this.box.confirmation();
    const { deps, agentId, agent, repo, signal, emit } = this;
    const { scrub } = this.box;
    const mayEnd = this.mayEndAtAnswer;
    return callModel(
      { deps, agentId, agent, repo, requester, facts, confirmation, scrub, signal, emit, mayEnd },
      model,
      history,
    );
  }

  /** Charges a call made outside callModel (a summary, an auto-review) on its own statement. */
  private charge = async (model: ReadyModel, usage: CallUsage, started: number, description: string) => {
    const { charge, stats } = pricedCall(model, usage, started, description, this.chargedTo());
    await chargeCall(this.deps, charge);
    return stats;
  };

  private chargedTo() {
    return { installationId: this.repo.installationId, agentId: this.agentId };
  }

  /** What a tool call runs for: the agent and repository as this step read them. */
  private toolScope(): ToolScope {
    const { deps, agentId, agent, repo, signal, emit } = this;
    return { deps, agentId, agent, repo, signal, emit };
  }

  private async executeTools(calls: ToolCallPart[]): Promise<'complete' | 'interrupted' | 'waiting' | null> {
    const sandbox = await this.box.ready();
    if (!sandbox) return 'interrupted';
    const requester = this.requester;
    let stop: 'complete' | 'interrupted' | 'waiting' | null = null;
    for (const call of calls) {
      const output = await executeToolCall(this.toolScope(), call, sandbox, requester);
      await appendSpice(this.deps.db, this.agentId, {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output: { type: 'text', value: output.text },
          },
        ],
      });
      if (call.toolName === 'commit_and_push' && output.succeeded) {
        await autoReview({
          deps: this.deps,
          agentId: this.agentId,
          reviewModelKey: this.agent.reviewModel,
          repoFullName: this.repo.fullName,
          sandbox,
          signal: this.signal,
          emit: this.emit,
          charge: this.charge,
        });
      }
      if (output.stop?.kind === 'complete') stop = 'complete';
      if (output.stop?.kind === 'wait') {
        // Calls after the wait stay pending and run when the agent wakes.
        this.waitingUntil = await beginWait(this.deps.db, this.agentId, output.stop.seconds);
        return 'waiting';
      }
    }
    return stop;
  }
}
