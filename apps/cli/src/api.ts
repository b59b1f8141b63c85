import { httpErrorMessage } from '@tandem/shared';
import type { z } from 'zod';

export class CliApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'CliApiError';
  }
}

/** GETs a Tandem API path and validates the answer with its shared schema. */
export async function getJson<S extends z.ZodType>(
  baseUrl: string,
  path: string,
  schema: S,
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(new URL(path, baseUrl));
  } catch (error) {
    throw new CliApiError(`Could not reach ${baseUrl}: ${(error as Error).message}`, 0);
  }
  if (!response.ok) {
    const body = await response.text();
    throw new CliApiError(httpErrorMessage(response.status, response.statusText, body), response.status);
  }
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success)
    throw new CliApiError(`Unexpected answer from ${path}: ${parsed.error.message}`, response.status);
  return parsed.data;
}
