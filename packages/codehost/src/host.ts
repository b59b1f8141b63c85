import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { AppCredentials } from './credentials.js';
import { Store } from './store/store.js';
import type { HostInstallation, HostRepo, HostToken, HostUser } from './store/types.js';

export type Permission = 'admin' | 'write' | 'read' | 'none';

export type Actor =
  | { kind: 'user'; user: HostUser }
  | { kind: 'installation'; installation: HostInstallation }
  | { kind: 'anonymous' };

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const HOUR_MS = 60 * 60 * 1000;
const PERSONAL_TOKEN_TTL_MS = 90 * 24 * HOUR_MS;

/** The code host's domain: who exists, who may see and change what, and tokens. No HTTP here. */
export class Host {
  readonly store: Store;

  constructor(
    readonly dataDir: string,
    readonly credentials: AppCredentials,
  ) {
    this.store = new Store(dataDir);
  }

  get state() {
    return this.store.state;
  }

  repoPath(repo: Pick<HostRepo, 'owner' | 'name'>): string {
    return join(this.dataDir, 'repos', repo.owner.toLowerCase(), `${repo.name.toLowerCase()}.git`);
  }

  user(login: string): HostUser | undefined {
    const lower = login.toLowerCase();
    return this.state.users.find((u) => u.login.toLowerCase() === lower);
  }

  org(login: string) {
    const lower = login.toLowerCase();
    return this.state.orgs.find((o) => o.login.toLowerCase() === lower);
  }

  repo(owner: string, name: string): HostRepo | undefined {
    const full = `${owner}/${name}`.toLowerCase();
    return this.state.repos.find((r) => `${r.owner}/${r.name}`.toLowerCase() === full);
  }

  installationFor(account: string): HostInstallation | undefined {
    const lower = account.toLowerCase();
    return this.state.installations.find((i) => i.account.toLowerCase() === lower);
  }

  installation(id: number): HostInstallation | undefined {
    return this.state.installations.find((i) => i.id === id);
  }

  /** Accounts a user can act for: themself and their organisations. */
  orgsOf(login: string) {
    const lower = login.toLowerCase();
    return this.state.orgs.filter((o) => Object.keys(o.members).some((m) => m.toLowerCase() === lower));
  }

  orgRole(org: string, login: string): 'admin' | 'member' | null {
    const found = this.org(org);
    if (!found) return null;
    const entry = Object.entries(found.members).find(([m]) => m.toLowerCase() === login.toLowerCase());
    return entry ? entry[1] : null;
  }

  /** GitHub's collaborator permission: owners admin, org admins admin, org members write. */
  permission(login: string, repo: HostRepo): Permission {
    if (repo.owner.toLowerCase() === login.toLowerCase()) return 'admin';
    const role = this.orgRole(repo.owner, login);
    if (role === 'admin') return 'admin';
    if (role === 'member') return 'write';
    return repo.private ? 'none' : 'read';
  }

  /** Installations a user can reach: on their own account and on their organisations. */
  userInstallations(login: string): HostInstallation[] {
    const accounts = new Set([login.toLowerCase(), ...this.orgsOf(login).map((o) => o.login.toLowerCase())]);
    return this.state.installations.filter((i) => accounts.has(i.account.toLowerCase()));
  }

  reposOf(account: string): HostRepo[] {
    return this.state.repos.filter((r) => r.owner.toLowerCase() === account.toLowerCase());
  }

  canRead(actor: Actor, repo: HostRepo): boolean {
    if (actor.kind === 'installation')
      return actor.installation.account.toLowerCase() === repo.owner.toLowerCase();
    if (actor.kind === 'user') return this.permission(actor.user.login, repo) !== 'none';
    return !repo.private;
  }

  canWrite(actor: Actor, repo: HostRepo): boolean {
    if (actor.kind === 'installation')
      return actor.installation.account.toLowerCase() === repo.owner.toLowerCase();
    if (actor.kind === 'user') return ['admin', 'write'].includes(this.permission(actor.user.login, repo));
    return false;
  }

  /** Who is acting, for attributing comments and pushes. */
  actorLogin(actor: Actor): string {
    if (actor.kind === 'user') return actor.user.login;
    if (actor.kind === 'installation') return `${this.credentials.slug}[bot]`;
    return 'anonymous';
  }

  issueToken(
    kind: 'user' | 'installation',
    subject: string | number,
    ttlMs: number,
    personal?: HostToken['personal'],
  ): { token: string; expiresAt: Date } {
    const prefix = personal ? 'ghp' : kind === 'user' ? 'ghu' : 'ghs';
    const token = `${prefix}_${randomBytes(18).toString('base64url')}`;
    const expiresAt = new Date(Date.now() + ttlMs);
    this.store.update((s) => {
      const now = Date.now();
      s.tokens = s.tokens.filter((t) => Date.parse(t.expiresAt) > now);
      s.tokens.push({
        hash: hash(token),
        kind,
        subject,
        expiresAt: expiresAt.toISOString(),
        ...(personal ? { personal } : {}),
      });
    });
    return { token, expiresAt };
  }

  /** A personal access token (git over HTTPS, the REST API), shown to its owner once. */
  issuePersonalToken(login: string, name: string) {
    const personal = { id: this.store.nextId(), name, createdAt: new Date().toISOString() };
    return { ...this.issueToken('user', login, PERSONAL_TOKEN_TTL_MS, personal), id: personal.id };
  }

  personalTokens(login: string): (NonNullable<HostToken['personal']> & { expiresAt: string })[] {
    const lower = login.toLowerCase();
    const now = Date.now();
    return this.state.tokens
      .filter(
        (t) =>
          t.personal &&
          t.kind === 'user' &&
          String(t.subject).toLowerCase() === lower &&
          Date.parse(t.expiresAt) > now,
      )
      .map((t) => ({ ...t.personal!, expiresAt: t.expiresAt }));
  }

  /** Deletes one of a user's personal tokens; false when they have none with that id. */
  revokePersonalToken(login: string, id: number): boolean {
    const lower = login.toLowerCase();
    const index = this.state.tokens.findIndex(
      (t) => t.personal?.id === id && String(t.subject).toLowerCase() === lower,
    );
    if (index === -1) return false;
    this.store.update((s) => s.tokens.splice(index, 1));
    return true;
  }

  /** Ends a token at once (signing out revokes the session's token, not just the cookie). */
  revokeToken(token: string): void {
    const digest = hash(token);
    if (!this.state.tokens.some((t) => t.hash === digest)) return;
    this.store.update((s) => (s.tokens = s.tokens.filter((t) => t.hash !== digest)));
  }

  issueInstallationToken(installationId: number) {
    return this.issueToken('installation', installationId, HOUR_MS);
  }

  issueUserToken(login: string) {
    return this.issueToken('user', login, 8 * HOUR_MS);
  }

  /** The actor behind a token, or undefined when it is unknown or expired. */
  actorForToken(token: string): Actor | undefined {
    const record = this.state.tokens.find((t) => t.hash === hash(token));
    if (!record || Date.parse(record.expiresAt) <= Date.now()) return undefined;
    if (record.kind === 'user') {
      const user = this.user(String(record.subject));
      return user ? { kind: 'user', user } : undefined;
    }
    const installation = this.installation(Number(record.subject));
    return installation ? { kind: 'installation', installation } : undefined;
  }
}
