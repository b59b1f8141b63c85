import {
  CSRF_HEADER,
  errorBodySchema,
  httpErrorMessage,
  validationErrorBodySchema,
  type ValidationIssue,
} from '@tandem/shared';
import type { z } from 'zod';

/** A failed API call: `message` is what to show; `detail` carries the server's own words. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The server's `detail`: a string, or the 422 issue list. */
    readonly detail?: string | ValidationIssue[],
    readonly body?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server's explanation when it gave one, else the generic message. */
  get serverMessage(): string {
    if (typeof this.detail === 'string') return this.detail;
    if (Array.isArray(this.detail) && this.detail[0]) return this.detail[0].msg;
    return this.message;
  }
}

export interface ApiRequest<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  schema: S;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Calls the Tandem API with the session cookie, and validates the answer with its shared schema:
 * a response that does not match is an error, never silently trusted.
 */
export async function apiFetch<S extends z.ZodType>(
  path: string,
  request: ApiRequest<S>,
): Promise<z.infer<S>> {
  const method = request.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (!SAFE_METHODS.has(method)) headers[CSRF_HEADER] = '1';
  if (request.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('Network error: could not reach the server. Check your connection and try again.', 0);
  }

  const text = await response.text();
  if (!response.ok) throw toApiError(response, text);

  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError(`Unexpected response from ${path}: not JSON`, response.status, undefined, text);
  }
  const parsed = request.schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError(
      `Unexpected response from ${path}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      response.status,
    );
  }
  return parsed.data;
}

function toApiError(response: Response, text: string): ApiError {
  const message = httpErrorMessage(response.status, response.statusText, text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return new ApiError(message, response.status, undefined, text);
  }
  const validation = validationErrorBodySchema.safeParse(json);
  if (validation.success) return new ApiError(message, response.status, validation.data.detail, text);
  const error = errorBodySchema.safeParse(json);
  return new ApiError(message, response.status, error.success ? error.data.detail : undefined, text);
}
