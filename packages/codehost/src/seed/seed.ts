import { existsSync } from 'node:fs';
import type { Host } from '../host.js';
import { commitFiles, initBare } from '../git/repo-files.js';
import type { HostRepo } from '../store/types.js';
import { API_FILES, PLAYGROUND_FILES, TEMPLATE_FILES, WEBAPP_FILES, WEBAPP_ISSUES } from './seed-data.js';

export const TEMPLATE_REPO = { owner: 'tandem-templates', name: 'javascript-starter' };

/** Seeds the demo world. Idempotent: anything already there is left as it is. */
export async function seed(host: Host): Promise<void> {
  host.store.update((s) => {
    for (const user of [
      { id: 1, login: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
      { id: 2, login: 'bob', name: 'Bob Builder', email: 'bob@example.com' },
      { id: 3, login: 'eve', name: 'Eve Example', email: 'eve@example.com' },
    ]) {
      if (!s.users.some((u) => u.id === user.id)) s.users.push(user);
    }
    if (!s.orgs.some((o) => o.login === 'acme'))
      s.orgs.push({ id: 100, login: 'acme', members: { ada: 'admin', bob: 'member' } });
    if (!s.orgs.some((o) => o.login === 'tandem-templates'))
      s.orgs.push({ id: 101, login: 'tandem-templates', members: {} });
    for (const installation of [
      { id: 1000, account: 'acme' },
      { id: 1001, account: 'ada' },
    ]) {
      if (!s.installations.some((i) => i.id === installation.id)) {
        s.installations.push({ ...installation, createdAt: new Date().toISOString() });
      }
    }
  });

  await seedRepo(
    host,
    {
      id: 200,
      owner: 'acme',
      name: 'webapp',
      private: true,
      description: 'A tiny Node.js web helper library',
    },
    WEBAPP_FILES,
  );
  await seedRepo(
    host,
    { id: 201, owner: 'acme', name: 'api', private: true, description: 'The acme HTTP API' },
    API_FILES,
  );
  await seedRepo(
    host,
    { id: 202, owner: 'ada', name: 'playground', private: false, description: "Ada's scratch repository" },
    PLAYGROUND_FILES,
  );
  await seedRepo(
    host,
    { id: 203, ...TEMPLATE_REPO, private: false, isTemplate: true, description: 'A minimal Node.js starter' },
    TEMPLATE_FILES,
  );

  host.store.update((s) => {
    if (s.issues.some((i) => i.repo === 'acme/webapp')) return;
    WEBAPP_ISSUES.forEach((issue, index) => {
      const now = new Date().toISOString();
      s.issues.push({
        number: index + 1,
        repo: 'acme/webapp',
        title: issue.title,
        body: issue.body,
        author: 'bob',
        state: 'open',
        createdAt: now,
        updatedAt: now,
        closedAt: null,
        comments: [],
      });
    });
  });
}

async function seedRepo(
  host: Host,
  spec: Pick<HostRepo, 'id' | 'owner' | 'name' | 'private' | 'description'> & { isTemplate?: boolean },
  files: Record<string, string>,
): Promise<void> {
  const path = host.repoPath(spec);
  if (!host.repo(spec.owner, spec.name)) {
    host.store.update((s) => {
      s.repos.push({
        ...spec,
        isTemplate: spec.isTemplate ?? false,
        defaultBranch: 'main',
        createdAt: new Date().toISOString(),
      });
    });
  }
  if (existsSync(path)) return;
  await initBare(path, 'main');
  await commitFiles(path, 'main', files, 'Initial commit');
}
