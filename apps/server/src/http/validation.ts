import { jsonProblems, TEXT_MESSAGES, toValidationIssues, type RequestPart } from '@tandem/shared';
import type { z } from 'zod';
import { ValidationError } from '../errors/app-error.js';

const PROBLEM_TYPES = { nul: 'string_nul', surrogate: 'string_unicode', depth: 'json_depth' } as const;

/**
 * Validates one part of a request with its shared zod schema; failures become HTTP 422.
 *
 * Whatever the schema lets through is then checked once more, here, for every route: no string in
 * it may hold a NUL or an unpaired surrogate (Postgres refuses both; free-text fields clean
 * themselves with `userText`, so what is left is an identifier, a key or a name and is refused),
 * and free-form JSON may not nest deeper than MAX_JSON_DEPTH.
 */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, part: RequestPart): z.infer<S> {
  // With the input on each issue, a wrong type reads `object_type`, not `missing`.
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw new ValidationError(toValidationIssues(result.error, part));
  const problems = jsonProblems(result.data);
  if (problems.length) {
    throw new ValidationError(
      problems.map(({ path, problem }) => ({
        loc: [part, ...path],
        msg: TEXT_MESSAGES[problem],
        type: PROBLEM_TYPES[problem],
      })),
    );
  }
  return result.data;
}
