import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { splitSpeaker, textOf } from './scripted-prompt.js';

/**
 * How the party agent's opening message starts (the server's services/party/start-party-agent.ts
 * writes it). The offline demo model tells a party chat by it: visitors chat there, so the demo's
 * fixed plan (edit, commit, open a pull request on the operator's repository) must not run.
 */
export const PARTY_OPENING_PREFIX = 'You are the party agent:';
export const DEMO_PARTY_TITLE = 'Party chat';

function isPartyOpening(text: string): boolean {
  const { speaker, body } = splitSpeaker(text);
  return speaker !== null && body.startsWith(PARTY_OPENING_PREFIX);
}

/** Whether the conversation is a party chat: its first person's message is the party opening. */
export function isPartyChat(prompt: LanguageModelV3Prompt): boolean {
  const first = prompt.find((message) => message.role === 'user');
  return first !== undefined && isPartyOpening(textOf(first).trim());
}

/**
 * The demo model's part in a party chat: a title once, then a plain answer to the latest message,
 * and never a tool that changes anything.
 */
export function demoPartyStep(prompt: LanguageModelV3Prompt): {
  text: string;
  toolCalls: { name: string; args: Record<string, unknown> }[];
} {
  const titled = prompt.some(
    (message) =>
      message.role === 'assistant' &&
      message.content.some((part) => part.type === 'tool-call' && part.toolName === 'set_title'),
  );
  if (!titled) return { text: '', toolCalls: [{ name: 'set_title', args: { title: DEMO_PARTY_TITLE } }] };
  const latest = prompt.filter((message) => message.role === 'user').at(-1);
  const text = latest ? textOf(latest).trim() : '';
  if (isPartyOpening(text))
    return { text: "Hello, everyone! I'm the party agent. Say hi and I'll answer.", toolCalls: [] };
  // A visitor's name is theirs to choose only within [\w-], so echoing it back is safe.
  const name = splitSpeaker(text).speaker;
  return {
    text: `Thanks${name ? `, ${name}` : ''}! This party agent runs on Tandem's offline demo model: no AI is configured on this deployment, so it cannot really answer. Once its operator configures a model provider, it chats for real.`,
    toolCalls: [],
  };
}
