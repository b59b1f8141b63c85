import { agents } from '@tandem/db';
import { generateText, type ModelMessage } from 'ai';
import { eq } from 'drizzle-orm';
import { SUMMARIZE_MARKER } from '../model/index.js';
import type { Scrubber } from '../sandbox/index.js';
import type { CallUsage, ReadyModel } from './call-charge.js';
import { applySummary } from './history.js';
import { actionItem, type NewItem } from './items.js';
import { SUMMARY_INSTRUCTIONS } from './prompt.js';
import type { RuntimeDeps } from './runtime-deps.js';

/**
 * Replaces an agent's context with the model's summary of it, once the context outgrows the
 * agent's summarization limit. The summary is the model's words about repository content, so it
 * is scrubbed before it is stored or shown; the call is charged like any other.
 */
export async function summarizeContext(options: {
  deps: RuntimeDeps;
  agentId: string;
  model: ReadyModel;
  history: ModelMessage[];
  scrub: Scrubber;
  signal: AbortSignal;
  emit(item: NewItem): Promise<unknown>;
  charge(model: ReadyModel, usage: CallUsage, started: number, description: string): Promise<unknown>;
}): Promise<void> {
  const { deps, agentId, model, emit } = options;
  const started = performance.now();
  const result = await generateText({
    model: model.model,
    system: `${SUMMARIZE_MARKER}\n${SUMMARY_INSTRUCTIONS}`,
    messages: [...options.history, { role: 'user', content: `${SUMMARIZE_MARKER}: ${SUMMARY_INSTRUCTIONS}` }],
    abortSignal: options.signal,
  });
  await options.charge(model, result.usage, started, `${model.option.label} summary`);
  const summary = options.scrub(result.text);
  await emit(actionItem('SummaryEvent', { summary_content: summary }));
  await applySummary(deps.db, agentId, summary);
  await deps.db.update(agents).set({ curTokens: 0 }).where(eq(agents.id, agentId));
  await emit(actionItem('SummaryAppliedEvent', { summary: 'Earlier context was summarized' }));
}
