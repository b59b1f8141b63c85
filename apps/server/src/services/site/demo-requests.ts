import { count, desc } from 'drizzle-orm';
import { demoRequests, type Db } from '@tandem/db';

/** Request a Demo: stored before the route answers, so a success always means it was kept. */
export async function addDemoRequest(
  db: Db,
  request: { email: string; message: string; leadId: string | null },
): Promise<void> {
  await db.insert(demoRequests).values(request);
}

/** The admins' list of demo requests, newest first, one page at a time. */
export async function listDemoRequests(db: Db, page: { page: number; rowsPerPage: number }) {
  const rows = await db
    .select()
    .from(demoRequests)
    .orderBy(desc(demoRequests.createdAt))
    .limit(page.rowsPerPage)
    .offset((page.page - 1) * page.rowsPerPage);
  const [total] = await db.select({ n: count() }).from(demoRequests);
  return {
    requests: rows.map((r) => ({
      id: r.id,
      email: r.email,
      message: r.message,
      lead_id: r.leadId,
      created_at: r.createdAt.toISOString(),
    })),
    count: total?.n ?? 0,
  };
}
