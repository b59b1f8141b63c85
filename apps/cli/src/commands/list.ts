import type { Command } from 'commander';
import { agentListSchema, relativeTime, type AgentMetadata } from '@tandem/shared';
import type { Context } from '../context.js';
import { isWorking } from '../follow.js';
import { examples, positiveInt, repoName } from './shared.js';

interface ListOptions {
  repo?: string;
  search?: string;
  archived?: boolean;
  all?: boolean;
  json?: boolean;
  page: number;
  limit: number;
}

/**
 * The search the web app would use (workspace §6, §9): your own agents ('creator:me') that are not
 * archived, unless the search already says otherwise or --all / --archived ask for it.
 */
export function listSearch(options: Pick<ListOptions, 'search' | 'archived' | 'all'>): string {
  const words = (options.search ?? '').split(/\s+/).filter(Boolean);
  const has = (prefix: string) => words.some((w) => w.toLowerCase().startsWith(prefix));
  if (!options.all && !has('creator:')) words.unshift('creator:me');
  if (!has('is:')) words.push(options.archived ? 'is:archived' : 'is:unarchived');
  return words.join(' ');
}

export function registerList(program: Command, ctx: Context): void {
  program
    .command('list')
    .alias('ls')
    .description('List your agents, newest first: id, title, repository, status, last activity')
    .option('--repo <owner/name>', "only this repository's agents", repoName)
    .option('--search <text>', "title words, plus 'creator:NAME', 'is:archived', 'is:unarchived'")
    .option('--archived', 'archived agents instead of active ones')
    .option('--all', "every creator's agents you can see, not only yours")
    .option('--page <n>', 'page number', positiveInt, 1)
    .option('--limit <n>', 'agents per page (1-100)', positiveInt, 25)
    .option('--json', 'print {agents, count} as JSON')
    .addHelpText(
      'after',
      examples(
        'tandem list',
        'tandem list --repo acme/webapp --search "login bug"',
        'tandem list --archived --page 2',
        'tandem list --json | jq -r ".agents[].id"',
      ),
    )
    .action(async (options: ListOptions, command: Command) => {
      const client = ctx.client(command);
      // The API's own maximum page size (agentListQuerySchema).
      const limit = Math.min(options.limit, 100);
      const path = options.repo ? `/api/agents/${options.repo}` : '/api/agents';
      const list = await client.get(path, agentListSchema, {
        page: options.page,
        rows_per_page: limit,
        search: listSearch(options),
      });
      if (options.json) {
        ctx.out(JSON.stringify(list, null, 2));
        return;
      }
      if (!list.agents.length) {
        ctx.out('No Agents Found');
        return;
      }
      ctx.out(table(list.agents, ctx).join('\n'));
      const pages = Math.max(1, Math.ceil(list.count / limit));
      ctx.err(
        ctx.style.dim(`Page ${options.page} of ${pages} (${list.count} agent${list.count === 1 ? '' : 's'})`),
      );
    });
}

const MAX_TITLE = 48;

function table(agents: AgentMetadata[], ctx: Context): string[] {
  const s = ctx.style;
  const rows = agents.map((a) => [
    a.id,
    a.title.length > MAX_TITLE ? `${a.title.slice(0, MAX_TITLE - 1)}…` : a.title,
    a.repo_name ?? '-',
    a.archived ? `${a.status} (archived)` : a.status,
    relativeTime(a.last_active),
  ]);
  const header = ['ID', 'TITLE', 'REPO', 'STATUS', 'UPDATED'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [
    s.bold(line(header)),
    ...rows.map((r, index) => {
      const text = line(r);
      return isWorking(agents[index]!.status) ? s.green(text) : text;
    }),
  ];
}
