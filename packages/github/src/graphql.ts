import { retryDelayMs, RETRY } from './limits.js';
import type { GitHubClient } from './client.js';

export class GraphqlRateLimitError extends Error {
  constructor() {
    super('GraphQL Rate Limit Exceeded');
    this.name = 'GraphqlRateLimitError';
  }
}

interface GraphqlErrorShape {
  errors?: { type?: string; message?: string }[];
  message?: string;
  status?: number;
}

const SOMETHING_WENT_WRONG = /something went wrong while executing/i;

/**
 * GraphQL with the spec's rules: RATE_LIMITED raises 'GraphQL Rate Limit Exceeded'; GitHub's
 * transient "Something went wrong while executing your query" counts as a 500 and is retried
 * like one (3 times, quadratic back-off).
 */
export async function graphqlQuery<T>(
  client: GitHubClient,
  query: string,
  variables: Record<string, unknown> = {},
  delayScale = 1,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.graphql<T>(query, variables);
    } catch (error) {
      const shape = error as GraphqlErrorShape;
      const messages = [shape.message ?? '', ...(shape.errors ?? []).map((e) => e.message ?? '')];
      if ((shape.errors ?? []).some((e) => e.type === 'RATE_LIMITED')) throw new GraphqlRateLimitError();
      const transient = messages.some((m) => SOMETHING_WENT_WRONG.test(m)) || (shape.status ?? 0) >= 500;
      if (!transient || attempt >= RETRY.retries) throw error;
      await new Promise((r) => setTimeout(r, retryDelayMs(attempt + 1) * delayScale));
    }
  }
}
