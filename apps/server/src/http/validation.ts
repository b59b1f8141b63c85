import { toValidationIssues, type RequestPart } from '@tandem/shared';
import type { z } from 'zod';
import { ValidationError } from '../errors/app-error.js';

/** Validates one part of a request with its shared zod schema; failures become HTTP 422. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, part: RequestPart): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(toValidationIssues(result.error, part));
  return result.data;
}
