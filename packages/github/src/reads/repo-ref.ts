/** Names a repository the way every read takes it. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** The HTTP status of an Octokit RequestError, if it is one. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** A commit message's first line: the spec's commit "title". */
export const firstLine = (message: string) => message.split('\n', 1)[0] ?? '';
