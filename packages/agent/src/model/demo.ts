import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
} from '@ai-sdk/provider';
import type { ModelOption } from '@tandem/shared';
import { MockLanguageModelV3 } from 'ai/test';
import { DEMO_MODEL_KEY } from './config.js';
import { nextDemoStep } from './demo-plan.js';
import { SUMMARIZE_MARKER } from './scripted-prompt.js';
import { offlineResult, toStream, type OfflineUsage } from './offline-result.js';

/** The demo model's catalog entry: offered when no provider is configured (TANDEM_DEMO_MODEL). */
export function demoModelOption(): ModelOption {
  return {
    key: DEMO_MODEL_KEY,
    model: DEMO_MODEL_KEY,
    label: 'Demo (offline, free)',
    description: 'No AI: a fixed plan that edits, tests, pushes and opens a pull request, to try Tandem.',
    provider: 'openai-compatible',
    thinking_budget: null,
    reasoning_effort: null,
    temperature: null,
    default_summarization_limit: 150_000,
    max_summarization_limit: 1_000_000,
    core_recommended: true,
    review_recommended: false,
    admin_only: false,
  };
}

/** No tokens are used; the counts only keep the context gauge honest about size (zero). */
const NO_USAGE: OfflineUsage = { input: 0, cached: 0, output: 0, reasoning: 0 };
const REVIEW_ANSWER = 'LGTM (the offline demo model does not review code).';
const SUMMARY_ANSWER = 'The demo model keeps no summary: the next message starts its plan again.';

function answer(options: LanguageModelV3CallOptions): LanguageModelV3GenerateResult {
  options.abortSignal?.throwIfAborted();
  // The loop's own calls carry tools; auto-review and summarization calls do not, and get a fixed
  // answer instead of a step of the plan.
  if (!options.tools?.length) {
    const system = options.prompt.find((m) => m.role === 'system')?.content ?? '';
    const text = system.includes(SUMMARIZE_MARKER) ? SUMMARY_ANSWER : REVIEW_ANSWER;
    return offlineResult([{ type: 'text', text }], 'fixed', NO_USAGE, DEMO_MODEL_KEY);
  }
  const step = nextDemoStep(options.prompt);
  const content: LanguageModelV3Content[] = [];
  if (step.text) content.push({ type: 'text', text: step.text });
  step.toolCalls.forEach((call, i) =>
    content.push({
      type: 'tool-call',
      toolCallId: `demo_${Date.now().toString(36)}_${i}`,
      toolName: call.name,
      input: JSON.stringify(call.args),
    }),
  );
  return offlineResult(content, 'step', NO_USAGE, DEMO_MODEL_KEY);
}

/** The offline demo model (demo-plan.ts): a LanguageModelV3 that never calls anything. */
export function createDemoModel(): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    provider: 'demo',
    modelId: DEMO_MODEL_KEY,
    doGenerate: (options) => {
      // The mock records every call; a long-running server must not keep every prompt.
      model.doGenerateCalls.length = 0;
      return Promise.resolve(answer(options));
    },
    doStream: (options) => {
      model.doStreamCalls.length = 0;
      return Promise.resolve({ stream: toStream(answer(options)) });
    },
  });
  return model;
}
