import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { agents, agentSources, type Db } from '@tandem/db';
import { listScripts, readFile, type GitHubClient } from '@tandem/github';
import { SCRIPTS_MESSAGES, WORKING_STATUSES, type RepositoryScripts } from '@tandem/shared';
import { AppError } from '../../errors/app-error.js';
import type { AccessibleRepository } from './repository-access.js';

/** What marks an agent as writing a repository's scripts (agents.purpose). */
export const GENERATE_SCRIPTS_PURPOSE = 'generate-scripts';

const FIXED_SCRIPTS = ['.tandem/setup.sh', '.tandem/format.sh'];
/** Enough for any real `.tandem/` folder; each is one contents read on the code host. */
const MAX_SCRIPTS = 30;

/**
 * The repository's scripts on its default branch with their text, the open pull requests of
 * script-generation agents, and those agents still working (platform §3, §4).
 */
export async function repositoryScripts(
  db: Db,
  reader: { webUrl: string; installationClient(installationId: number): GitHubClient },
  repository: AccessibleRepository,
): Promise<RepositoryScripts> {
  const [owner = '', repo = ''] = repository.fullName.split('/');
  const ref = repository.defaultBranch;
  const client = reader.installationClient(repository.installationId);

  let scripts: Record<string, string>;
  try {
    const lists = await listScripts(client, { owner, repo, ref });
    const paths = [...new Set([...FIXED_SCRIPTS, ...lists.run, ...lists.auto, ...lists.preview])].slice(
      0,
      MAX_SCRIPTS,
    );
    const files = await Promise.all(paths.map((path) => readFile(client, { owner, repo, path, ref })));
    if (files.some((f) => f.status === 'error')) throw new Error('a script could not be read');
    scripts = Object.fromEntries(
      paths.flatMap((path, i) => {
        const file = files[i]!;
        return file.status === 'ok' ? [[path, file.contents]] : [];
      }),
    );
  } catch (error) {
    throw Object.assign(new AppError('bad_gateway', SCRIPTS_MESSAGES.fetch), { cause: error });
  }

  const generators = await db
    .select({ id: agents.id, status: agents.status })
    .from(agents)
    .where(and(eq(agents.repositoryId, repository.id), eq(agents.purpose, GENERATE_SCRIPTS_PURPOSE)));
  const pulls = generators.length
    ? await db
        .select({ number: agentSources.number })
        .from(agentSources)
        .where(
          and(
            inArray(
              agentSources.agentId,
              generators.map((g) => g.id),
            ),
            isNotNull(agentSources.number),
            eq(agentSources.state, 'open'),
            eq(agentSources.type, 'branch'),
          ),
        )
    : [];
  const web = reader.webUrl.replace(/\/+$/, '');
  return {
    scripts,
    open_pr_links: pulls.map((p) => ({
      number: p.number!,
      link: `${web}/${repository.fullName}/pull/${p.number}`,
    })),
    agent_ids: generators
      .filter((g) => (WORKING_STATUSES as readonly string[]).includes(g.status))
      .map((g) => g.id),
  };
}
