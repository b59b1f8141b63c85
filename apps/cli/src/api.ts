import { errorBodySchema, httpErrorMessage, validationErrorBodySchema } from '@tandem/shared';
import type { z } from 'zod';
import { CliError, EXIT, type ExitCode } from './errors.js';

/** Where the web app's out-of-credits notice links (workspace §2 links). */
export const BILLING_PATH = '/settings#billing';

type Query = Record<string, string | number | undefined>;

/**
 * A small client for the Tandem API: Bearer auth (never CSRF-checked, see the server's
 * authenticate.ts), every answer validated with its @tandem/shared schema, and every failure turned
 * into a CliError whose exit code says what kind it was.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string | undefined,
    private readonly userAgent = 'tandem-cli',
  ) {}

  get<S extends z.ZodType>(path: string, schema: S, query?: Query): Promise<z.infer<S>> {
    return this.request('GET', path, schema, { query });
  }

  post<S extends z.ZodType>(path: string, body: unknown, schema: S, query?: Query): Promise<z.infer<S>> {
    return this.request('POST', path, schema, { query, body });
  }

  async request<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    options: { query?: Query | undefined; body?: unknown } = {},
  ): Promise<z.infer<S>> {
    const url = new URL(path, `${this.baseUrl}/`);
    for (const [key, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        `Could not reach ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}` +
          ' (check --url or TANDEM_URL)',
        EXIT.network,
      );
    }
    const text = await response.text();
    if (!response.ok) throw this.failure(response, text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CliError(`Unexpected answer from ${path}: not JSON (is ${this.baseUrl} a Tandem server?)`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new CliError(`Unexpected answer from ${path}: ${parsed.error.message}`);
    return parsed.data;
  }

  private failure(response: Response, text: string): CliError {
    const { status } = response;
    const detail = serverDetail(text) ?? httpErrorMessage(status, response.statusText, '');
    const fail = (message: string, code: ExitCode) => new CliError(message, code, status);
    if (status === 401)
      return fail(
        this.token
          ? `Your Tandem token for ${this.baseUrl} is expired or revoked: run "tandem login" to sign in again`
          : `Not signed in to ${this.baseUrl}: run "tandem login" (or set TANDEM_TOKEN)`,
        EXIT.auth,
      );
    if (status === 402)
      return fail(`${withStop(detail)} Billing: ${this.baseUrl}${BILLING_PATH}`, EXIT.payment);
    if (status === 404) return fail(detail, EXIT.notFound);
    if (status === 400 || status === 422) return fail(detail, EXIT.usage);
    if (status >= 500) {
      const requestId = errorBodySchema.safeParse(safeJson(text)).data?.request_id;
      return fail(`Server error: ${detail}${requestId ? ` (request id ${requestId})` : ''}`, EXIT.generic);
    }
    return fail(detail, EXIT.generic);
  }
}

const withStop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The server's own words: `detail` (a string, or FastAPI-style issues for 422). */
function serverDetail(text: string): string | undefined {
  const json = safeJson(text);
  const plain = errorBodySchema.safeParse(json);
  if (plain.success) return plain.data.detail;
  const validation = validationErrorBodySchema.safeParse(json);
  if (validation.success) return validation.data.detail.map((issue) => issue.msg).join('; ');
  return undefined;
}
