export * from './limits.js';
export * from './schemas.js';
export {
  createGitHubClient,
  graphqlUrl,
  type ClientLogger,
  type GitHubClient,
  type GitHubClientOptions,
  type TokenSource,
} from './client.js';
export { RATE_LIMIT_LOG, RATE_LIMIT_RETRIES } from './rate-limits.js';
export * from './graphql/query.js';
export * from './graphql/branches.js';
export * from './graphql/scripts.js';
export * from './reads/files.js';
export * from './reads/pulls.js';
export * from './reads/commits.js';
export * from './reads/repos.js';
export { statusOf, type RepoRef } from './reads/repo-ref.js';
export * from './users.js';
export * from './app-auth.js';
export * from './oauth.js';
export * from './webhooks.js';
export * from './reads/workflow-runs.js';
