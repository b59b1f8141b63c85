import { and, eq, sql } from 'drizzle-orm';
import { memberships, users, type Db } from '@tandem/db';
import type { PermissionSource } from '../services/repositories/repository-access.js';

/**
 * For tests that run without the local code host (or with users it does not know): access levels
 * read from the test's own memberships, as the code host would give them to an organisation's
 * admins (admin) and members (write). Tests of access levels themselves use the real code host.
 */
export function membershipPermissions(db: Db): PermissionSource {
  return {
    async repositoryPermission(installationId, _repository, username) {
      const [row] = await db
        .select({ role: memberships.role })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(
          and(
            eq(memberships.installationId, installationId),
            sql`lower(${users.username}) = ${username.toLowerCase()}`,
          ),
        )
        .limit(1);
      if (!row) return 'none';
      return row.role === 'admin' ? 'admin' : 'write';
    },
  };
}
