import type { GitHubClient } from '../client.js';
import type { ScriptLists } from '../schemas.js';
import { graphqlErrorsOf, graphqlQuery } from './query.js';

/** Workspace §7: the folders scanned for scripts (`.{product}/…`). */
export const SCRIPT_FOLDERS = {
  run: '.tandem/run',
  auto: '.tandem/run/auto',
  preview: '.tandem/preview',
} as const satisfies Record<keyof ScriptLists, string>;

type Folder = keyof typeof SCRIPT_FOLDERS;
const FOLDERS = Object.keys(SCRIPT_FOLDERS) as Folder[];

// One request for the three folders, one alias each: a folder that fails only nulls its own alias
// (GitHub answers the rest as partial data), and throttling spaces GraphQL calls a second apart.
const TREES_QUERY = `query($owner: String!, $name: String!, ${FOLDERS.map((f) => `$${f}: String!`).join(', ')}) {
  repository(owner: $owner, name: $name) {
${FOLDERS.map((f) => `    ${f}: object(expression: $${f}) { ... on Tree { entries { name type } } }`).join('\n')}
  }
}`;

type TreeObject = { entries?: { name: string; type: string }[] } | null;
interface TreesData {
  repository: Partial<Record<Folder, TreeObject>> | null;
}

/**
 * The `.sh` files directly inside each script folder at a ref, as repository paths. A folder that
 * is missing or fails to load lists nothing: scripts are an optional convenience.
 */
export async function listScripts(
  octokit: GitHubClient,
  at: { owner: string; repo: string; ref: string },
): Promise<ScriptLists> {
  const variables: Record<string, string> = { owner: at.owner, name: at.repo };
  for (const folder of FOLDERS) variables[folder] = `${at.ref}:${SCRIPT_FOLDERS[folder]}`;
  let data: TreesData | null;
  try {
    data = await graphqlQuery<TreesData>(octokit, TREES_QUERY, variables);
  } catch (error) {
    // Partial success: GitHub returns the folders that worked beside the errors of those that did not.
    data = partialData(error);
  }
  const lists: ScriptLists = { run: [], auto: [], preview: [] };
  for (const folder of FOLDERS) {
    const entries = data?.repository?.[folder]?.entries ?? [];
    lists[folder] = entries
      .filter((e) => e.type === 'blob' && e.name.endsWith('.sh'))
      .map((e) => `${SCRIPT_FOLDERS[folder]}/${e.name}`)
      .sort();
  }
  return lists;
}

function partialData(error: unknown): TreesData | null {
  if (graphqlErrorsOf(error).length === 0) return null;
  const data = (error as { data?: unknown }).data;
  return typeof data === 'object' && data !== null && 'repository' in data ? (data as TreesData) : null;
}
