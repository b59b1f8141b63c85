import type {
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

/** Token counts in TokenUsage meanings (input uncached, output without reasoning). */
export interface OfflineUsage {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}

/** A model answer assembled in process (the scripted and demo models), as a provider returns it. */
export function offlineResult(
  content: LanguageModelV3Content[],
  id: string,
  usage: OfflineUsage,
  modelId = 'scripted',
): LanguageModelV3GenerateResult {
  const toolCalls = content.some((part) => part.type === 'tool-call');
  return {
    content,
    finishReason: toolCalls ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
    usage: toV3Usage(usage),
    response: { id: `${modelId}-${id}`, modelId },
    warnings: [],
  };
}

/** Script usage has TokenUsage meanings (input uncached, output without reasoning). */
function toV3Usage(usage: OfflineUsage): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: usage.input + usage.cached,
      noCache: usage.input,
      cacheRead: usage.cached,
      cacheWrite: undefined,
    },
    outputTokens: {
      total: usage.output + usage.reasoning,
      text: usage.output,
      reasoning: usage.reasoning,
    },
  };
}

/** The generate result as the parts a streaming provider would send, text in word-sized deltas. */
export function toStream(
  generated: LanguageModelV3GenerateResult,
): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', ...generated.response },
  ];
  generated.content.forEach((part, n) => {
    if (part.type === 'text' || part.type === 'reasoning') {
      const id = `${part.type}-${n}`;
      parts.push({ type: `${part.type}-start`, id });
      for (const delta of part.text.match(/\S+\s*|\s+/g) ?? []) {
        parts.push({ type: `${part.type}-delta`, id, delta });
      }
      parts.push({ type: `${part.type}-end`, id });
    } else if (part.type === 'tool-call') {
      parts.push({ type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName });
      parts.push({ type: 'tool-input-delta', id: part.toolCallId, delta: part.input });
      parts.push({ type: 'tool-input-end', id: part.toolCallId });
      parts.push(part);
    }
  });
  parts.push({ type: 'finish', usage: generated.usage, finishReason: generated.finishReason });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
