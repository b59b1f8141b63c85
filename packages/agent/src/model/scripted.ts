import {
  APICallError,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Content,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { offlineResult as result, toStream, type OfflineUsage } from './offline-result.js';
import { analysePrompt, stateMarker, type PromptFacts } from './scripted-prompt.js';
import { pickScript, readScriptFile, type ScriptStep } from './scripted-file.js';

export { SUMMARIZE_MARKER } from './scripted-prompt.js';

/**
 * A deterministic model for tests, driven by a JSON file (format: scripted-file.ts).
 *
 * Stateless by design: the step that answers a call is the number of assistant messages already
 * in the prompt, so it survives server restarts and serves many agents at once. Steps past the end
 * answer "Done.". A prompt carrying SUMMARIZE_MARKER gets a summary instead, without using a step.
 */
export function createScriptedModel(file: string): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    provider: 'scripted',
    modelId: 'scripted',
    doGenerate: (options) => {
      // The mock records every call; a long e2e server run must not keep every prompt forever.
      model.doGenerateCalls.splice(0, Math.max(0, model.doGenerateCalls.length - KEPT_CALLS));
      return answer(file, options);
    },
    doStream: async (options): Promise<LanguageModelV3StreamResult> => {
      model.doStreamCalls.splice(0, Math.max(0, model.doStreamCalls.length - KEPT_CALLS));
      return { stream: toStream(await answer(file, options)) };
    },
  });
  return model;
}

const KEPT_CALLS = 20;
const DEFAULT_USAGE: OfflineUsage = { input: 1000, cached: 0, output: 100, reasoning: 0 };
const DONE_STEP: ScriptStep = { text: 'Done.' };

async function answer(
  file: string,
  options: LanguageModelV3CallOptions,
): Promise<LanguageModelV3GenerateResult> {
  options.abortSignal?.throwIfAborted();
  const script = await readScriptFile(file);
  const facts = analysePrompt(options.prompt);
  const scriptIndex =
    facts.carriedScript !== undefined && facts.carriedScript < script.scripts.length
      ? facts.carriedScript
      : pickScript(script, facts.firstUserText);

  if (facts.summarize) {
    return result([{ type: 'text', text: summaryText(facts, scriptIndex) }], 'summary', DEFAULT_USAGE);
  }
  if (scriptIndex === undefined) {
    throw scriptedError(
      file,
      `Scripted model: no script matches the first user message ${JSON.stringify(excerpt(facts.firstUserText))} and no script is a fallback (without "match")`,
    );
  }

  const step = script.scripts[scriptIndex]?.steps[facts.stepIndex] ?? DONE_STEP;
  if (step.delay_ms) await sleep(step.delay_ms, options.abortSignal);
  if (step.error !== undefined) throw scriptedError(file, step.error);

  const content: LanguageModelV3Content[] = [];
  if (step.reasoning) content.push({ type: 'reasoning', text: step.reasoning });
  if (step.text) content.push({ type: 'text', text: step.text });
  (step.tool_calls ?? []).forEach((call, i) =>
    content.push({
      type: 'tool-call',
      toolCallId: `call_${facts.stepIndex}_${i}`,
      toolName: call.name,
      input: JSON.stringify(call.args ?? {}),
    }),
  );
  return result(content, String(facts.stepIndex), { ...DEFAULT_USAGE, ...step.usage });
}

function summaryText(facts: PromptFacts, scriptIndex: number | undefined): string {
  const request =
    facts.carriedScript === undefined && facts.firstUserText
      ? `; first request: ${JSON.stringify(excerpt(facts.firstUserText))}`
      : '';
  return `Summary: ${facts.stepIndex} assistant turns so far${request}. ${stateMarker(facts.stepIndex, scriptIndex)}`;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

/** Not retryable: the AI SDK would otherwise retry with multi-second backoff and slow tests down. */
function scriptedError(file: string, message: string): APICallError {
  return new APICallError({
    message,
    url: `file://${file}`,
    requestBodyValues: {},
    statusCode: 500,
    isRetryable: false,
  });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  // An abort that landed while the script file was read has already fired: a listener added now
  // would never hear it, and a Stop would wait out the whole delay.
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
