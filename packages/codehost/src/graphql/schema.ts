import type { FastifyInstance } from 'fastify';
import { buildSchema, graphql, GraphQLError } from 'graphql';
import { listBranches, listTree } from '../git/repo-reads.js';
import { actorOf, type Context } from '../rest/context.js';
import { githubError } from '../rest/shapes.js';

/** The slice of GitHub's GraphQL schema the product queries: branches and directory listings. */
const schema = buildSchema(`
  enum OrderDirection { ASC DESC }
  enum RefOrderField { TAG_COMMIT_DATE ALPHABETICAL }
  input RefOrder { field: RefOrderField!, direction: OrderDirection! }
  type PageInfo { hasNextPage: Boolean!, endCursor: String }
  type Commit { oid: String!, committedDate: String! }
  type Ref { name: String!, target: Commit }
  type RefConnection { nodes: [Ref!]!, pageInfo: PageInfo!, totalCount: Int! }
  type TreeEntry { name: String!, type: String!, path: String! }
  type Tree { entries: [TreeEntry!]! }
  union GitObject = Tree | Commit
  type Repository {
    name: String!
    nameWithOwner: String!
    defaultBranchRef: Ref
    refs(refPrefix: String!, first: Int, after: String, orderBy: RefOrder): RefConnection
    object(expression: String!): GitObject
  }
  type RateLimit { remaining: Int!, resetAt: String!, limit: Int! }
  type Query { repository(owner: String!, name: String!): Repository, rateLimit: RateLimit! }
`);

interface RefsArgs {
  refPrefix: string;
  first?: number;
  after?: string;
  orderBy?: { field: string; direction: string };
}

export function graphqlRoutes(app: FastifyInstance, ctx: Context): void {
  app.post<{ Body: { query?: string; variables?: Record<string, unknown> } }>(
    '/api/graphql',
    async (request, reply) => {
      const actor = actorOf(request, ctx.host);
      // GitHub's GraphQL API answers nobody without a token.
      if (actor.kind === 'anonymous')
        return reply.status(401).send(githubError('This endpoint requires you to be authenticated.', 401));
      const rootValue = {
        rateLimit: () => ({
          remaining: 5000,
          limit: 5000,
          resetAt: new Date(Date.now() + 3600_000).toISOString(),
        }),
        repository: ({ owner, name }: { owner: string; name: string }) => {
          const repo = ctx.host.repo(owner, name);
          if (!repo || !ctx.host.canRead(actor, repo))
            throw new GraphQLError(`Could not resolve to a Repository with the name '${owner}/${name}'.`, {
              extensions: { type: 'NOT_FOUND' },
            });
          const bare = ctx.host.repoPath(repo);
          return {
            name: repo.name,
            nameWithOwner: `${repo.owner}/${repo.name}`,
            defaultBranchRef: { name: repo.defaultBranch },
            refs: async (args: RefsArgs) => {
              if (args.refPrefix !== 'refs/heads/')
                return { nodes: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 };
              let branches = await listBranches(bare);
              if (args.orderBy?.field === 'ALPHABETICAL')
                branches.sort((a, b) => a.name.localeCompare(b.name));
              if (args.orderBy?.direction === 'ASC') branches = branches.reverse();
              const start = args.after ? Number(Buffer.from(args.after, 'base64').toString('utf8')) + 1 : 0;
              const first = Math.min(args.first ?? 100, 100);
              const page = branches.slice(start, start + first);
              const end = start + page.length - 1;
              return {
                totalCount: branches.length,
                nodes: page.map((b) => ({
                  name: b.name,
                  target: { __typename: 'Commit', oid: b.sha, committedDate: b.committedDate },
                })),
                pageInfo: {
                  hasNextPage: start + first < branches.length,
                  endCursor: page.length ? Buffer.from(String(end)).toString('base64') : null,
                },
              };
            },
            object: async ({ expression }: { expression: string }) => {
              const [ref = '', path = ''] = expression.split(':');
              const entries = await listTree(bare, ref, path.replace(/\/+$/, ''));
              if (!entries) return null;
              return {
                __typename: 'Tree',
                entries: entries.map((e) => ({ name: e.name, path: e.path, type: e.type })),
              };
            },
          };
        },
      };
      const result = await graphql({
        schema,
        source: request.body?.query ?? '',
        variableValues: request.body?.variables ?? {},
        rootValue,
        typeResolver: (value: { __typename?: string }) => value.__typename,
      });
      // GitHub puts an error's type beside its message (`"type": "NOT_FOUND"`), not in extensions.
      const errors = result.errors?.map((error) => {
        const { extensions, ...rest } = error.toJSON();
        return { ...(typeof extensions?.type === 'string' ? { type: extensions.type } : {}), ...rest };
      });
      return reply.send(errors ? { ...result, errors } : result);
    },
  );
}
