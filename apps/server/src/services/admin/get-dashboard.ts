import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  agents,
  conversationItems,
  creditTransactions,
  installations,
  spiceMessages,
  users,
  type Db,
} from '@tandem/db';
import { WORKING_STATUSES, type AdminDashboard } from '@tandem/shared';
import { byDay, inRange, insightRange, utcDay } from './insight-range.js';
import { modelUsageColumns, toModelUsage } from './model-usage-columns.js';

const countAll = sql<string>`count(*)`;

/**
 * The figures an operator checks each morning (GET /api/admin/admin_dashboard): everything is
 * counted and summed in SQL, grouped by UTC day, on indexed time columns.
 */
export async function getDashboard(db: Db, days: number, now = new Date()): Promise<AdminDashboard> {
  const range = insightRange(days, now);
  const people = and(isNotNull(conversationItems.userId), inRange(conversationItems.timestamp, range));
  const errors = and(
    eq(conversationItems.actionType, 'ErrorEvent'),
    inRange(conversationItems.timestamp, range),
  );
  const modelCalls = and(isNotNull(spiceMessages.responseStats), inRange(spiceMessages.timestamp, range));
  const ledger = and(
    inArray(creditTransactions.kind, ['agent', 'invoice']),
    inRange(creditTransactions.createdAt, range),
  );
  const spent = sql<string>`coalesce(sum(case when ${creditTransactions.kind} = 'agent' then -${creditTransactions.amount} else 0 end), 0)`;
  const bought = sql<string>`coalesce(sum(case when ${creditTransactions.kind} = 'invoice' then ${creditTransactions.amount} else 0 end), 0)`;
  const activeUsers = sql<string>`count(distinct ${conversationItems.userId})`;
  const activeInstallations = sql<string>`count(distinct ${agents.installationId})`;
  const distinctAgents = sql<string>`count(distinct ${conversationItems.agentId})`;

  const newUsersDay = utcDay(users.createdAt);
  const activeDay = utcDay(conversationItems.timestamp);
  const startedDay = utcDay(agents.createdAt);
  const ledgerDay = utcDay(creditTransactions.createdAt);

  const [
    [userCount],
    [installationCount],
    [running],
    newUsers,
    active,
    [activeTotal],
    started,
    credits,
    erroredDaily,
    [erroredTotal],
    [ran],
    models,
  ] = await Promise.all([
    db.select({ n: countAll }).from(users),
    db.select({ n: countAll }).from(installations).where(isNull(installations.deletedAt)),
    db
      .select({ n: countAll })
      .from(agents)
      .where(inArray(agents.status, [...WORKING_STATUSES])),
    db
      .select({ day: newUsersDay, n: countAll })
      .from(users)
      .where(inRange(users.createdAt, range))
      .groupBy(newUsersDay),
    db
      .select({ day: activeDay, users: activeUsers, installations: activeInstallations })
      .from(conversationItems)
      .innerJoin(agents, eq(agents.id, conversationItems.agentId))
      .where(people)
      .groupBy(activeDay),
    db
      .select({ users: activeUsers, installations: activeInstallations })
      .from(conversationItems)
      .innerJoin(agents, eq(agents.id, conversationItems.agentId))
      .where(people),
    db
      .select({ day: startedDay, n: countAll })
      .from(agents)
      .where(inRange(agents.createdAt, range))
      .groupBy(startedDay),
    db.select({ day: ledgerDay, spent, bought }).from(creditTransactions).where(ledger).groupBy(ledgerDay),
    db.select({ day: activeDay, n: distinctAgents }).from(conversationItems).where(errors).groupBy(activeDay),
    db.select({ n: distinctAgents }).from(conversationItems).where(errors),
    // An agent ran when it called a model or hit an error in the range.
    db.select({ n: sql<string>`count(*)` }).from(
      sql`(select ${spiceMessages.agentId} from ${spiceMessages} where ${modelCalls}
        union select ${conversationItems.agentId} from ${conversationItems} where ${errors}) as ran`,
    ),
    db
      .select({ model: agents.model, ...modelUsageColumns })
      .from(spiceMessages)
      .innerJoin(agents, eq(agents.id, spiceMessages.agentId))
      .where(modelCalls)
      .groupBy(agents.model)
      .orderBy(desc(modelUsageColumns.cost), agents.model),
  ]);

  const newUsersBy = byDay(newUsers);
  const activeBy = byDay(active);
  const startedBy = byDay(started);
  const creditsBy = byDay(credits);
  const erroredBy = byDay(erroredDaily);
  const daily = range.dates.map((date) => ({
    date,
    new_users: Number(newUsersBy.get(date)?.n ?? 0),
    active_users: Number(activeBy.get(date)?.users ?? 0),
    active_installations: Number(activeBy.get(date)?.installations ?? 0),
    agents_started: Number(startedBy.get(date)?.n ?? 0),
    credits_spent: Number(creditsBy.get(date)?.spent ?? 0),
    credits_bought: Number(creditsBy.get(date)?.bought ?? 0),
    errored_agents: Number(erroredBy.get(date)?.n ?? 0),
  }));
  const sum = (key: keyof (typeof daily)[number]) => daily.reduce((total, d) => total + Number(d[key]), 0);
  const agentsRan = Number(ran?.n ?? 0);
  const erroredAgents = Number(erroredTotal?.n ?? 0);
  return {
    days,
    from: range.dates[0]!,
    to: range.dates[range.dates.length - 1]!,
    totals: {
      users: Number(userCount?.n ?? 0),
      installations: Number(installationCount?.n ?? 0),
      new_users: sum('new_users'),
      active_users: Number(activeTotal?.users ?? 0),
      active_installations: Number(activeTotal?.installations ?? 0),
      agents_started: sum('agents_started'),
      agents_running: Number(running?.n ?? 0),
      credits_spent: sum('credits_spent'),
      credits_bought: sum('credits_bought'),
      agents_ran: agentsRan,
      errored_agents: erroredAgents,
      error_rate: agentsRan ? Math.round((erroredAgents / agentsRan) * 10_000) / 10_000 : 0,
    },
    daily,
    models: models.map(({ model, ...usage }) => ({ model, ...toModelUsage(usage) })),
  };
}
