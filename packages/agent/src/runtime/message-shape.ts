// What a run reads off the conversation's messages, and how it scrubs what it stores of them.
import type { ModelMessage } from 'ai';

/** Every string inside a JSON-like value, scrubbed; the shape is kept. */
export function scrubDeep<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubDeep(v, scrub)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, scrub)])) as T;
  }
  return value;
}

function lastToolName(history: ModelMessage[]): string | null {
  const last = history.at(-1);
  if (!last || last.role !== 'tool') return null;
  const part = last.content.at(-1);
  return part && 'toolName' in part ? part.toolName : null;
}

/** Whether a message of the model's calls tools (which the run then executes). */
export function hasToolCalls(message: ModelMessage): boolean {
  return typeof message.content !== 'string' && message.content.some((part) => part.type === 'tool-call');
}

/** Whether the model has something to answer: a new user message or a tool result to continue from. */
export function needsModel(history: ModelMessage[]): boolean {
  const last = history.at(-1);
  if (!last) return false;
  if (last.role === 'user') return true;
  return last.role === 'tool' && lastToolName(history) !== 'task_complete';
}
