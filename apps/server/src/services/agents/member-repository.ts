import { and, eq, sql } from 'drizzle-orm';
import { coalesced, installations, memberships, prepared, repositories, type Db } from '@tandem/db';
import type { InstallationStanding } from './agent-access.js';

/**
 * An installed repository as creating an agent checks it: the columns the code host's access
 * check takes (RepositoryAccess.requireRow), whether the viewer is a member of its installation,
 * the installation's standing and the repository's default models.
 */
export interface MemberRepository extends InstallationStanding {
  id: string;
  fullName: string;
  installationId: number;
  private: boolean;
  defaultBranch: string;
  defaultModel: string | null;
  defaultReviewModel: string | null;
  /** Whether the viewer is a member of the repository's installation (agents spend its credits). */
  member: boolean;
}

/**
 * The repository `owner/name` (any case, not removed) with everything creating an agent checks, in
 * one read: a hundred agents started at once each read it (issue 15), so the access check and the
 * creation share it instead of reading the repository twice. Reads that arrive together go as one
 * statement (coalesced.ts), and the same viewer's reads of the same repository share its answer.
 */
export async function readMemberRepository(
  db: Db,
  viewerId: string,
  fullName: string,
): Promise<MemberRepository | undefined> {
  let read = readers.get(db);
  if (!read) {
    read = coalesced((keys: string[]) => readMemberRepositories(db, keys), { shareQueued: true });
    readers.set(db, read);
  }
  return read(JSON.stringify([viewerId, fullName.toLowerCase()]));
}

const readers = new WeakMap<Db, (key: string) => Promise<MemberRepository | undefined>>();

/** readMemberRepository for many keys, each the JSON text of `[viewerId, lower-case name]`. */
async function readMemberRepositories(db: Db, keys: string[]): Promise<Map<string, MemberRepository>> {
  const rows = await prepared(db, 'member_repositories', (d, name) =>
    d
      .select({
        n: sql<number>`k.n::int`,
        id: repositories.id,
        fullName: repositories.fullName,
        installationId: repositories.installationId,
        private: repositories.private,
        defaultBranch: repositories.defaultBranch,
        defaultModel: repositories.defaultModel,
        defaultReviewModel: repositories.defaultReviewModel,
        balance: installations.creditBalance,
        bannedAt: installations.bannedAt,
        suspendedAt: installations.suspendedAt,
        member: sql<boolean>`${memberships.userId} is not null`,
      })
      // The keys as one JSON array of `[viewerId, name]`: one statement text for any number.
      .from(
        sql`(select n, value ->> 0 as user_id, value ->> 1 as name
          from json_array_elements(${sql.placeholder('keys')}::json) with ordinality as e(value, n)) k`,
      )
      // lower(full_name) is unique (repositories_full_name_lower_key): one row a key at most.
      .innerJoin(
        repositories,
        sql`lower(${repositories.fullName}) = k.name and ${repositories.removedAt} is null`,
      )
      .leftJoin(
        memberships,
        and(
          eq(memberships.installationId, repositories.installationId),
          sql`${memberships.userId} = k.user_id::uuid`,
        ),
      )
      .leftJoin(installations, eq(installations.id, repositories.installationId))
      .prepare(name),
  ).execute({ keys: `[${keys.join(',')}]` });
  return new Map(rows.map(({ n, ...row }) => [keys[Number(n) - 1]!, row]));
}
