import type { ValidationIssue } from '@tandem/shared';

const STATUS_BY_CODE = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  validation: 422,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
} as const;

export type AppErrorCode = keyof typeof STATUS_BY_CODE;

/** A failure the caller can act on. Anything thrown that is not an AppError is a bug (HTTP 500). */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** Extra fields merged into the response body (e.g. error_data for unarchive). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = STATUS_BY_CODE[code];
  }
}

/** HTTP 422 with a FastAPI-style `detail` list. */
export class ValidationError extends Error {
  readonly status = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'ValidationError';
  }
}

export const notFound = (what = 'Not Found') => new AppError('not_found', what);
export const unauthorized = (why = 'Not authenticated') => new AppError('unauthorized', why);
export const forbidden = (why = 'Forbidden') => new AppError('forbidden', why);
