import { randomUUID } from 'node:crypto';
import { generateText, type ModelMessage } from 'ai';
import type { Scrubber } from '../sandbox/index.js';
import type { Requester, RunRepo } from './agent-row.js';
import { recordAnswer } from './answer-record.js';
import { chargeCall, pricedCall, type ReadyModel } from './call-charge.js';
import { appendSpice, type StoredSpice } from './history.js';
import type { NewItem } from './items.js';
import { hasToolCalls, scrubDeep } from './message-shape.js';
import type { FactsConfirmation, PromptFacts } from './prompt-facts.js';
import { systemPrompt } from './prompt.js';
import type { RuntimeDeps } from './runtime-deps.js';
import { REVIEW_PURPOSE, toolSet, type AgentRow } from './tools/index.js';

/** What one model call of a run is made for, as the run's step read it. */
export interface ModelCallScope {
  deps: RuntimeDeps;
  agentId: string;
  agent: AgentRow;
  repo: RunRepo;
  requester: Requester;
  /** The branches and instructions the system prompt names (prompt-facts.ts). */
  facts: PromptFacts;
  /** Set when `facts` were assumed: the answer is used only once they are confirmed. */
  confirmation?: FactsConfirmation;
  scrub: Scrubber;
  signal: AbortSignal;
  emit: (item: NewItem) => Promise<unknown>;
  /** Whether an answer that asks for nothing more may set the agent idle in its own statement. */
  mayEnd: boolean;
}

/**
 * The model call's answer stands once the facts its prompt assumed are confirmed: 'stale' when they
 * were not (the run asks again with the real ones), 'interrupted' when the run stopped first. A
 * check that failed (only the clone could say, and preparing it failed) throws: the run's error.
 */
async function confirmedOutcome(confirmation: FactsConfirmation): Promise<'stale' | 'interrupted' | null> {
  confirmation.hurry();
  const confirmed = await confirmation.confirmed;
  return confirmed === null ? 'interrupted' : confirmed ? null : 'stale';
}

/**
 * One model call: its messages stored and its cost charged in one go, before any tool runs. The
 * answer's messages come back as a read of the history would give them; 'ended' when the answer's
 * statement also set the agent idle (recordAnswer), 'interrupted' when the run was aborted, 'stale'
 * when the facts its prompt assumed turned out wrong (nothing is stored or charged: the request
 * was Tandem's guess, and it is aborted as soon as the check says so).
 */
export async function callModel(
  scope: ModelCallScope,
  model: ReadyModel,
  history: ModelMessage[],
): Promise<StoredSpice[] | 'interrupted' | 'ended' | 'stale'> {
  const { deps, agentId, agent, repo, requester, facts, scrub, signal, confirmation } = scope;
  const started = performance.now();
  const guess = confirmation && new AbortController();
  if (guess)
    confirmation.confirmed.then(
      (confirmed) => confirmed === false && guess.abort(),
      () => guess.abort(),
    );
  let result;
  try {
    result = await generateText({
      model: model.model,
      system: systemPrompt({
        repo,
        branch: facts.branch,
        baseBranch: facts.baseBranch,
        autoCreatePr: requester.autoCreatePr,
        instructions: facts.instructions,
        reviewer: agent.purpose === REVIEW_PURPOSE,
        supervisor: agent.agentType === 'supervisor',
      }),
      messages: history,
      tools: toolSet(agent.purpose, agent.agentType),
      providerOptions: model.providerOptions,
      abortSignal: guess ? AbortSignal.any([signal, guess.signal]) : signal,
      maxRetries: 2,
    });
  } catch (error) {
    if (signal.aborted) return 'interrupted';
    if (!guess?.signal.aborted) throw error;
    // Aborted because the check found the guess wrong: its outcome says so (or throws its error).
    result = null;
  }
  if (confirmation) {
    const outcome = await confirmedOutcome(confirmation);
    if (outcome === 'stale')
      deps.logger.info({ agentId }, 'model call asked again: its prompt named a branch that was taken');
    if (outcome) return outcome;
  }
  if (!result) return 'stale';
  // What the model writes is stored (and sent back to it) scrubbed too: a tool call's arguments
  // can carry a secret the model pieced together.
  const [first, ...more] = result.response.messages.map((message) => scrubDeep(message, scrub));
  const { charge, stats } = pricedCall(model, result.usage, started, `${model.option.label} call`, {
    installationId: repo.installationId,
    agentId,
  });
  const text = result.text.trim() ? scrub(result.text) : null;
  const item: NewItem | null = text
    ? { itemType: 'message', data: { message: text, username: 'tandem', role: 'assistant' } }
    : null;
  const answer: StoredSpice[] = [];
  // As a read would give it back: the stored JSON, not the object it was made from.
  const stored = (message: ModelMessage, { timestamp, json }: { timestamp: string; json: string }) =>
    answer.push({ message: { role: message.role, content: JSON.parse(json) } as ModelMessage, timestamp });
  if (first) {
    // The charge, the answer's message and its feed item in one statement (answer-record.ts).
    // An answer that asks for nothing more may end the run in the same statement.
    const final = !more.length && !hasToolCalls(first) && !signal.aborted;
    const recorded = await recordAnswer(deps.db, {
      charge,
      message: first,
      stats,
      item: item && { ...item, actionUuid: randomUUID() },
      mayEnd: final && scope.mayEnd,
    });
    if (recorded.autoFillDue) deps.afterCharge?.(repo.installationId);
    if (recorded.ended) return 'ended';
    stored(first, recorded);
  } else {
    await chargeCall(deps, charge);
    if (item) await scope.emit(item);
  }
  for (const message of more) stored(message, await appendSpice(deps.db, agentId, message));
  return answer;
}
