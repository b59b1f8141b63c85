import { and, asc, eq } from 'drizzle-orm';
import { agentSources, repositories, scriptLogs, type Db } from '@tandem/db';
import {
  compareRange,
  getDefaultBranch,
  getPullSummary,
  listScripts,
  readFile,
  statusOf,
  type FileReadResult,
  type GitHubClient,
} from '@tandem/github';
import {
  DIFF_MAX_FILES,
  type AgentBranch,
  type AgentDiff,
  type AgentLog,
  type AgentScripts,
  type DiffFile,
  type FileContent,
} from '@tandem/shared';
import { scriptLogBody } from './repositories/get-script-log.js';
import type { AuthenticatedUser } from './sessions.js';
import { AppError, notFound } from '../errors/app-error.js';
import { loadAgent, PARTY_PURPOSE } from './agents.js';

/** What the workspace's code-host reads need: a client acting as the agent's installation. */
export interface CodeReader {
  webUrl: string;
  installationClient(installationId: number): GitHubClient;
}

const BRANCH_NOT_FOUND = 'Branch subscription not found';

const split = (fullName: string) => {
  const [owner = '', repo = ''] = fullName.split('/');
  return { owner, repo };
};

/** A branch in a URL path keeps its slashes, as the code host's own links do. */
const refPath = (ref: string) => ref.split('/').map(encodeURIComponent).join('/');

/** The agent's branch subscription and the repository it is on; 404 with the spec's text otherwise. */
async function branchSource(db: Db, viewer: AuthenticatedUser, agentId: string, sourceId: string) {
  const agent = await loadAgent(db, viewer, agentId);
  const [row] = await db
    .select({
      source: agentSources,
      repoName: repositories.fullName,
      defaultBranch: repositories.defaultBranch,
    })
    .from(agentSources)
    .innerJoin(repositories, eq(repositories.id, agentSources.repositoryId))
    .where(and(eq(agentSources.id, sourceId), eq(agentSources.agentId, agent.id)))
    .limit(1);
  if (!row || row.source.type !== 'branch' || !row.source.branch) throw notFound(BRANCH_NOT_FOUND);
  return { agent, ...row, branch: row.source.branch };
}

export async function agentBranch(
  db: Db,
  reader: CodeReader,
  viewer: AuthenticatedUser,
  query: { trajectory_id: string; source_id: string },
): Promise<AgentBranch> {
  const { agent, source, repoName, defaultBranch, branch } = await branchSource(
    db,
    viewer,
    query.trajectory_id,
    query.source_id,
  );
  const client = reader.installationClient(agent.installationId);
  const at = split(repoName);
  const pull = source.number !== null ? await getPullSummary(client, { ...at, number: source.number }) : null;
  const base = pull?.baseBranch ?? source.prDraftBaseBranch ?? agent.baseBranch ?? defaultBranch;
  let range: Awaited<ReturnType<typeof compareRange>> | null = null;
  try {
    range = await compareRange(client, { ...at, base, head: branch });
  } catch (error) {
    // An agent that has not pushed yet has no branch on the code host: nothing to compare.
    if (statusOf(error) !== 404) throw error;
  }
  const [draftTitle = '', ...draftBody] = (source.prDraft ?? '').split('\n');
  const lastCommitTitle = range?.commits.at(-1)?.title ?? '';
  return {
    repository_name: repoName,
    branch,
    base_branch: base,
    pushed: range !== null,
    pull_request:
      pull && source.number !== null
        ? { number: source.number, title: pull.title, body: pull.body, state: source.state }
        : null,
    draft_title: draftTitle || lastCommitTitle,
    draft_body: draftBody.join('\n').trim(),
    commits: range?.commits ?? [],
    base_sha: range?.mergeBase ?? null,
    compare_url: `${reader.webUrl}/${repoName}/compare/${refPath(base)}...${refPath(branch)}`,
  };
}

const toContent = (result: FileReadResult): FileContent =>
  result.status === 'error' ? { status: 'error', message: result.message } : result;

/** Runs `work` over `items` with at most `limit` in flight, keeping the order. */
async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Diffs between two commits never change, so the newest ones are kept in memory: the window
 * refetches while the agent works and many viewers look at the same range.
 */
const diffCache = new Map<string, AgentDiff>();
const DIFF_CACHE_ENTRIES = 64;

export async function agentDiff(
  db: Db,
  reader: CodeReader,
  viewer: AuthenticatedUser,
  query: { trajectory_id: string; source_id: string; from: string; to: string },
): Promise<AgentDiff> {
  const { agent, repoName } = await branchSource(db, viewer, query.trajectory_id, query.source_id);
  const key = `${agent.installationId}:${repoName}:${query.from}:${query.to}`;
  const cached = diffCache.get(key);
  if (cached) return cached;
  const client = reader.installationClient(agent.installationId);
  const at = split(repoName);
  let range;
  try {
    range = await compareRange(client, { ...at, base: query.from, head: query.to });
  } catch (error) {
    if (statusOf(error) === 404) throw notFound('Unknown commit');
    throw error;
  }
  const shown = range.files.slice(0, DIFF_MAX_FILES);
  const files = await mapLimited(shown, 6, async (file): Promise<DiffFile> => {
    const [original, modified] = await Promise.all([
      file.status === 'added'
        ? ({ status: 'not_found', contents: '' } as const)
        : readFile(client, { ...at, path: file.previousFilename ?? file.filename, ref: range.mergeBase }),
      file.status === 'removed'
        ? ({ status: 'not_found', contents: '' } as const)
        : readFile(client, { ...at, path: file.filename, ref: query.to }),
    ]);
    return {
      filename: file.filename,
      previous_filename: file.previousFilename,
      status: file.status,
      additions: file.additions,
      deletions: file.deletions,
      original: toContent(original),
      modified: toContent(modified),
    };
  });
  const diff = { files, truncated: range.files.length > shown.length };
  // Only full SHAs name a fixed range; a short one could become ambiguous later.
  if (/^[0-9a-f]{40}$/i.test(query.from) && /^[0-9a-f]{40}$/i.test(query.to)) {
    diffCache.set(key, diff);
    if (diffCache.size > DIFF_CACHE_ENTRIES) diffCache.delete(diffCache.keys().next().value!);
  }
  return diff;
}

/** The spec's file-fetch statuses (§8) passed on; anything else the code host said is a 502. */
function fileError(result: Extract<FileReadResult, { status: 'error' }>): AppError {
  switch (result.httpStatus) {
    case 401:
      return new AppError('unauthorized', 'You must be logged in to view this file.');
    case 403:
      return new AppError(
        'forbidden',
        'You do not have permission to view this file. Ask the owner of the github repository to add you.',
      );
    case 429:
      return new AppError('rate_limited', 'Request rate limit reached. Please try again later.');
    default:
      return new AppError('bad_gateway', 'There was an unknown error fetching this files contents.');
  }
}

export async function agentFile(
  db: Db,
  reader: CodeReader,
  viewer: AuthenticatedUser,
  query: { trajectory_id: string; repository_name: string; path: string; ref?: string | undefined },
): Promise<FileContent> {
  const agent = await loadAgent(db, viewer, query.trajectory_id);
  // Only repositories of the agent's own installation: the App's token must not read others.
  const [repo] = await db
    .select({ id: repositories.id, fullName: repositories.fullName })
    .from(repositories)
    .where(
      and(
        eq(repositories.installationId, agent.installationId),
        eq(repositories.fullName, query.repository_name),
      ),
    )
    .limit(1);
  // A party agent is readable by anyone: only its own repository, never the operator's others.
  if (!repo || (agent.purpose === PARTY_PURPOSE && repo.id !== agent.repositoryId))
    throw notFound('Repository not found');
  const result = await readFile(reader.installationClient(agent.installationId), {
    ...split(repo.fullName),
    path: query.path.replace(/^\/+/, ''),
    ref: query.ref,
  });
  if (result.status === 'error') {
    if (result.httpStatus === undefined) return toContent(result);
    throw fileError(result);
  }
  return result;
}

export async function agentLog(
  db: Db,
  viewer: AuthenticatedUser,
  query: { trajectory_id: string; log_id: string },
): Promise<AgentLog> {
  const agent = await loadAgent(db, viewer, query.trajectory_id);
  const [row] = await db
    .select({ log: scriptLogs, repoName: repositories.fullName })
    .from(scriptLogs)
    .leftJoin(repositories, eq(repositories.id, scriptLogs.repositoryId))
    .where(and(eq(scriptLogs.id, query.log_id), eq(scriptLogs.agentId, agent.id)))
    .limit(1);
  if (!row) throw notFound('Failed to fetch log');
  return scriptLogBody(row.log, row.repoName);
}

/**
 * The Run Scripts menu: `.sh` files at the agent's branch once it is pushed, else at its base (the
 * spec re-checks after a branch change; the web app refetches).
 */
export async function agentScripts(
  db: Db,
  reader: CodeReader,
  viewer: AuthenticatedUser,
  agentId: string,
): Promise<AgentScripts> {
  const agent = await loadAgent(db, viewer, agentId);
  const [row] = await db
    .select({ branch: agentSources.branch, repoName: repositories.fullName })
    .from(agentSources)
    .innerJoin(repositories, eq(repositories.id, agentSources.repositoryId))
    .where(and(eq(agentSources.agentId, agent.id), eq(agentSources.type, 'branch')))
    .orderBy(asc(agentSources.createdAt))
    .limit(1);
  const repoName =
    row?.repoName ??
    (agent.repositoryId
      ? (
          await db
            .select({ fullName: repositories.fullName })
            .from(repositories)
            .where(eq(repositories.id, agent.repositoryId))
            .limit(1)
        )[0]?.fullName
      : undefined);
  if (!repoName) return { run: [], auto: [], preview: [] };
  const client = reader.installationClient(agent.installationId);
  const at = split(repoName);
  const base = agent.baseBranch ?? (await getDefaultBranch(client, at));
  for (const ref of [row?.branch, base]) {
    if (!ref) continue;
    const lists = await listScripts(client, { ...at, ref });
    if (lists.run.length || lists.auto.length || lists.preview.length || ref === base) return lists;
  }
  return { run: [], auto: [], preview: [] };
}
