import { InvalidArgumentError } from 'commander';

/** Helpers several commands share: argument parsers and links into the web app. */

/** Agent ids are UUIDs; a typo is a usage error here rather than a 422 from the server. */
export function agentId(value: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value))
    throw new InvalidArgumentError('expected an agent id (a UUID, as `tandem list` shows)');
  return value.toLowerCase();
}

/** `owner/name` as the code host spells repositories. */
export function repoName(value: string): string {
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(value))
    throw new InvalidArgumentError('expected owner/name');
  return value;
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

/** The agent's page in the web app (workspace §2 routes). */
export function agentUrl(baseUrl: string, repo: string | null, id: string): string {
  return repo ? `${baseUrl}/gh/${repo}/agent/${id}` : `${baseUrl}/agents/${id}`;
}

/** Help text blocks: `Examples:` after the options, as every command shows. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}
