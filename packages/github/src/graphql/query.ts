import type { GitHubClient } from '../client.js';

/** Workspace §8: a GraphQL rate limit surfaces with exactly this message. */
export class GraphqlRateLimitError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('GraphQL Rate Limit Exceeded', options);
    this.name = 'GraphqlRateLimitError';
  }
}

interface GraphqlErrorEntry {
  type?: string;
  message?: string;
  path?: readonly (string | number)[];
}

/** The `errors` of a failed GraphQL call, wherever Octokit put them on the thrown error. */
export function graphqlErrorsOf(error: unknown): GraphqlErrorEntry[] {
  if (typeof error !== 'object' || error === null) return [];
  const holders = [
    error, // GraphqlResponseError
    (error as { data?: unknown }).data, // the throttling plugin's RATE_LIMITED error
    (error as { response?: { data?: unknown } }).response?.data, // RequestError with a GraphQL body
  ];
  for (const holder of holders) {
    const errors = (holder as { errors?: unknown } | undefined)?.errors;
    if (Array.isArray(errors)) return errors as GraphqlErrorEntry[];
  }
  return [];
}

function isRateLimited(error: unknown): boolean {
  return (
    (error instanceof Error && error.message === 'GraphQL Rate Limit Exceeded') ||
    graphqlErrorsOf(error).some((e) => e.type === 'RATE_LIMITED')
  );
}

/**
 * A GraphQL query under the client's rules. The retry plugin already retries GitHub's transient
 * "Something went wrong while executing your query" like a 500, and throttling retries a
 * RATE_LIMITED answer once; here a rate limit that persists becomes a GraphqlRateLimitError.
 */
export async function graphqlQuery<T>(
  octokit: GitHubClient,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  try {
    return await octokit.graphql<T>(query, variables);
  } catch (error) {
    if (isRateLimited(error)) throw new GraphqlRateLimitError({ cause: error });
    throw error;
  }
}
