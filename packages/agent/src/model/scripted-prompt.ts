import type { LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';

/** Set by the runtime's summarization call (in a system or user message). */
export const SUMMARIZE_MARKER = 'SUMMARIZE_CONTEXT_REQUEST';

/**
 * Carried by the scripted summary so a summarized conversation (which has lost its earlier
 * assistant messages) continues the same script at the same step instead of starting over.
 */
const STATE_PATTERN = /\[scripted-state steps=(\d+)(?: script=(\d+))?\]/g;

export function stateMarker(steps: number, script: number | undefined): string {
  return script === undefined
    ? `[scripted-state steps=${steps}]`
    : `[scripted-state steps=${steps} script=${script}]`;
}

export interface PromptFacts {
  /** Text of the first user message that is not a summarization request. */
  firstUserText: string;
  /** Steps already answered: the carried-over count plus assistant messages since the summary. */
  stepIndex: number;
  /** The script chosen before a summarization, when the prompt carries one. */
  carriedScript: number | undefined;
  summarize: boolean;
}

/** The runtime writes a person's message as "{username}: {text}" (runtime/history.ts). */
const SPEAKER = /^([A-Za-z0-9][\w-]*)(?:\[bot\])?: /;

/** A person's message split into who wrote it (null when it names nobody) and what they wrote. */
export function splitSpeaker(text: string): { speaker: string | null; body: string } {
  const match = SPEAKER.exec(text);
  return match ? { speaker: match[1]!, body: text.slice(match[0].length) } : { speaker: null, body: text };
}

/** A message's text parts joined (a system message's content; nothing for tool results). */
export function textOf(message: LanguageModelV3Message): string {
  if (message.role === 'system') return message.content;
  if (message.role === 'tool') return '';
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

export function analysePrompt(prompt: LanguageModelV3Prompt): PromptFacts {
  let firstUserText: string | undefined;
  let summarize = false;
  let carriedSteps = 0;
  let carriedScript: number | undefined;
  let assistantMessages = 0;

  for (const message of prompt) {
    const text = textOf(message);
    const isRequest =
      (message.role === 'system' || message.role === 'user') && text.includes(SUMMARIZE_MARKER);
    if (isRequest) summarize = true;
    if (message.role === 'user' && !isRequest && firstUserText === undefined) firstUserText = text;

    const states = [...text.matchAll(STATE_PATTERN)];
    const state = states.at(-1);
    if (state) {
      carriedSteps = Number(state[1]);
      carriedScript = state[2] === undefined ? undefined : Number(state[2]);
      // Assistant messages before the summary are already counted in carriedSteps.
      assistantMessages = 0;
    } else if (message.role === 'assistant') {
      assistantMessages += 1;
    }
  }

  return {
    firstUserText: firstUserText ?? '',
    stepIndex: carriedSteps + assistantMessages,
    carriedScript,
    summarize,
  };
}
