import { agents, prepared, spiceMessages, type Db } from '@tandem/db';
import type { ModelMessage } from 'ai';
import { eq, sql, type SQL, type WithSubquery } from 'drizzle-orm';
import { chargeResult, chargeStatement, type ChargeResult } from '../credits/ledger.js';
import { FAILED_STATUS } from './asleep.js';
import { hasUnfedMessages, spiceInsert, spiceValues, type ResponseStats } from './history.js';
import { itemAgentSet, itemInsert, itemValues, type NewItem } from './items.js';

export interface AnswerRecord {
  charge: { installationId: number; agentId: string; units: number; curTokens: number; description: string };
  /** The answer's (first) message for the model's context, with the call's stats. */
  message: ModelMessage;
  stats: ResponseStats;
  /** The feed item that shows the answer's text, when it has any. */
  item: (NewItem & { actionUuid: string }) | null;
  /**
   * The answer ends the run unless the agent has more to do (the caller knows it asked nothing
   * more: no tool call, no wait): then the same statement also sets it idle, if nobody interrupted
   * it, no user message waits to be fed and no admin failed it (see `ended`).
   */
  mayEnd: boolean;
}

/**
 * A model call's charge, its answer for the context and the answer's feed item, in one statement:
 * the charge's (ledger.ts) with the two inserts as more data-modifying CTEs and the item's times
 * on the agent row the charge updates anyway. All or nothing: an answer is never stored uncharged
 * or charged unstored. Three statements were a third of the embedded database's work at the end of
 * a round of 100 agents, where every answer's statements queue behind all the others' on its one
 * thread (issue 15; docs/decisions.md "An answer stored with its charge").
 *
 * A final answer also sets the agent 'paused' in it when nothing else is to be done, which is what
 * the run's next step would have read and written in two more statements (`ended`: the run ends
 * there, idle). The check reads the row as the step would: an interrupt asked for, a user message
 * not fed yet, or an admin's Fail leaves the status alone and the run goes on to its next step.
 */
export async function recordAnswer(
  db: Db,
  answer: AnswerRecord,
): Promise<ChargeResult & { timestamp: string; json: string; ended: boolean }> {
  const spice = spiceValues(answer.charge.agentId, answer.message, { responseStats: answer.stats }, 'spice_');
  const item = answer.item ? itemValues(answer.charge.agentId, answer.item, 'item_') : null;
  const statement = item
    ? prepared(db, 'record_answer_with_item', (d, name) =>
        answerStatement(
          d,
          [d.$with('answer_item').as(itemInsert(d, 'item_'))],
          itemAgentSet('item_'),
        ).prepare(name),
      )
    : prepared(db, 'record_answer', (d, name) => answerStatement(d, [], {}).prepare(name));
  const [row] = await statement.execute({
    ...answer.charge,
    ...spice.values,
    ...item?.values,
    mayEnd: answer.mayEnd,
  });
  return {
    ...chargeResult(row, answer.charge.installationId),
    timestamp: spice.timestamp,
    json: spice.json,
    ended: row?.ended === true,
  };
}

/** recordAnswer's statement: the charge, the spice row, `more` inserts and the end's check. */
function answerStatement(db: Db, more: WithSubquery[], agentSet: Record<string, SQL>) {
  // Read before the charge's update, from the same snapshot as every other part of the statement.
  const quiet = db.$with('answer_ends').as(
    db
      .select({
        ends: sql<boolean>`(${sql.placeholder('mayEnd')}::boolean and ${agents.status} <> ${FAILED_STATUS}
          and not ${agents.interruptRequested} and not ${hasUnfedMessages})`.as('ends'),
      })
      .from(agents)
      .where(eq(agents.id, sql.placeholder('agentId'))),
  );
  const ends = sql`coalesce((select ${quiet.ends} from ${quiet}), false)`;
  return chargeStatement(db, {
    before: [quiet],
    agentSet: {
      ...agentSet,
      status: sql`case when ${ends} then 'paused' else ${agents.status} end`,
      // A Stop that committed after the snapshot has nothing left to stop once the agent is idle:
      // left set, it would end the agent's next run at once (docs/decisions.md "A Stop that
      // meets the end of a run").
      interruptRequested: sql`case when ${ends} then false else ${agents.interruptRequested} end`,
    },
    ctes: [
      db.$with('answer_spice').as(spiceInsert(db, 'spice_').returning({ id: spiceMessages.id })),
      ...more,
    ],
    select: { ended: sql<boolean>`${ends}` },
  });
}
