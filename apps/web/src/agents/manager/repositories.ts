import { readStoredJson, writeStored } from '../../lib/storage';

/** Repository choice in the new-agent form (workspace §5). */
export const REPOSITORY_MESSAGES = {
  required: 'Must select a repository',
  invalid: 'Invalid Repository Name',
} as const;

/** owner/name, each of letters, digits, '-', '_' and '.'. */
const FULL_NAME_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

export function repositoryError(value: string): string | null {
  const name = value.trim();
  if (!name) return REPOSITORY_MESSAGES.required;
  if (!FULL_NAME_PATTERN.test(name) || name.length > 201) return REPOSITORY_MESSAGES.invalid;
  return null;
}

export function splitRepository(fullName: string): { owner: string; repo: string } {
  const [owner = '', repo = ''] = fullName.trim().split('/');
  return { owner, repo };
}

export const LAST_USED_REPOS_KEY = 'lastUsedRepos';
export const LAST_USED_REPOS_MAX = 20;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Most recent first; anything unreadable counts as none. */
export function readLastUsedRepos(): string[] {
  const parsed = readStoredJson(LAST_USED_REPOS_KEY);
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
}

/** The list with `repository` moved (or added) to the front. */
export function withLastUsed(list: string[], repository: string): string[] {
  return [repository, ...list.filter((item) => !same(item, repository))].slice(0, LAST_USED_REPOS_MAX);
}

export function rememberRepository(repository: string): void {
  writeStored(LAST_USED_REPOS_KEY, JSON.stringify(withLastUsed(readLastUsedRepos(), repository)));
}

/** The user's repositories with the last-used ones first (most recent first), the rest as given. */
export function orderRepositories(repositories: string[], lastUsed: string[]): string[] {
  const recent = lastUsed
    .map((name) => repositories.find((repo) => same(repo, name)))
    .filter((repo): repo is string => repo !== undefined);
  const unique = [...new Set(recent)];
  return [...unique, ...repositories.filter((repo) => !unique.includes(repo))];
}

/** What the form starts with: the page's repository, else the last one used that the user still has. */
export function initialRepository(repositories: string[], lastUsed: string[], preset?: string): string {
  if (preset) return preset;
  const last = lastUsed[0];
  return (last && repositories.find((repo) => same(repo, last))) ?? '';
}
