import { z } from 'zod';

/**
 * FastAPI-style validation error body (HTTP 422). The original product was a FastAPI service and
 * its clients read `detail[].msg`, so every validation failure uses this shape.
 */
export const validationIssueSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

export const validationErrorBodySchema = z.object({ detail: z.array(validationIssueSchema) });
export type ValidationErrorBody = z.infer<typeof validationErrorBodySchema>;

/** Every non-validation error body: a human message, a stable code, and the request id for 5xx. */
export const errorBodySchema = z.object({
  detail: z.string(),
  code: z.string(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export type RequestPart = 'body' | 'query' | 'path' | 'header';

/** Turns zod issues into FastAPI-style `detail` entries, `loc` prefixed with where the value came from. */
export function toValidationIssues(error: z.ZodError, part: RequestPart): ValidationIssue[] {
  return error.issues.map((issue) => ({
    loc: [part, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issue.message,
    type: issueType(issue),
  }));
}

function issueType(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return issue.input === undefined ? 'missing' : `${issue.expected}_type`;
  return issue.code;
}
