import { z } from 'zod';

/**
 * Text that may reach the database. Postgres refuses NUL in `text` and `jsonb`, and `jsonb`
 * refuses a lone UTF-16 surrogate (`"\ud800"` is valid JSON, so JSON.parse lets it through). Both
 * would end in a 500 at insert time, so requests are checked before anything is stored:
 * free text a person wrote is cleaned ({@link userText}), everything else that carries them is
 * refused with a 422 (docs/decisions.md "NUL and lone surrogates in requests").
 */

const NUL = '\u0000';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const TEXT_MESSAGES = {
  nul: 'Text cannot contain NUL characters',
  surrogate: 'Text is not valid Unicode (unpaired surrogate)',
  depth: 'Value is nested too deeply',
} as const;

/** Deepest nesting of arrays and objects accepted in free-form JSON (tracking data, …). */
export const MAX_JSON_DEPTH = 32;

/** What is wrong with a string for storage, or null when it can be stored as it is. */
export function textProblem(value: string): 'nul' | 'surrogate' | null {
  if (value.includes(NUL)) return 'nul';
  if (LONE_SURROGATE.test(value)) return 'surrogate';
  return null;
}

/** Free text made storable: NUL removed, each unpaired surrogate replaced by U+FFFD. */
export function cleanText(value: string): string {
  return value.replaceAll(NUL, '').replace(LONE_SURROGATES, '\ufffd');
}

/**
 * Free text a person wrote (a message, a title, a comment): cleaned, then checked by `inner`, so a
 * message is never lost for an invisible character.
 */
export function userText<T extends z.ZodType<string, string>>(inner: T) {
  return z.string().transform(cleanText).pipe(inner);
}

export interface JsonProblem {
  path: (string | number)[];
  problem: 'nul' | 'surrogate' | 'depth';
}

/** A value still to look at, and where it sits (its path is built only for a problem). */
interface Pending {
  value: unknown;
  parent: Pending | undefined;
  key: string | number;
  depth: number;
}

function pathOf(node: Pending): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Pending | undefined = node; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Every string (object keys included) that cannot be stored, and any nesting deeper than
 * `maxDepth`. Walks without recursion, so a hostile 100 000-level value cannot overflow the stack;
 * stops after `limit` problems. Every request's query and body pass here, so a value's path is
 * made only when it has a problem.
 */
export function jsonProblems(value: unknown, maxDepth = MAX_JSON_DEPTH, limit = 20): JsonProblem[] {
  const problems: JsonProblem[] = [];
  const stack: Pending[] = [{ value, parent: undefined, key: 0, depth: 0 }];
  while (stack.length && problems.length < limit) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) problems.push({ path: pathOf(node), problem });
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (node.depth >= maxDepth) {
      problems.push({ path: pathOf(node), problem: 'depth' });
      continue;
    }
    const depth = node.depth + 1;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], parent: node, key: i, depth });
      continue;
    }
    // Only plain data: Dates, Buffers and the like are not JSON the client sent.
    const proto = Object.getPrototypeOf(current) as unknown;
    if (proto !== Object.prototype && proto !== null) continue;
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const child: Pending = { value: (current as Record<string, unknown>)[key], parent: node, key, depth };
      const keyProblem = textProblem(key);
      if (keyProblem) problems.push({ path: pathOf(child), problem: keyProblem });
      stack.push(child);
    }
  }
  return problems;
}

/**
 * Free-form JSON that is stored as it is (jsonb): refused when a string in it cannot be stored or
 * it nests deeper than {@link MAX_JSON_DEPTH}.
 */
export const storableJsonSchema = z.unknown().superRefine((value, ctx) => {
  for (const { path, problem } of jsonProblems(value)) {
    ctx.addIssue({ code: 'custom', message: TEXT_MESSAGES[problem], path, params: { problem } });
  }
});
