import { prepared, spiceMessages, type Db } from '@tandem/db';
import type { ModelMessage } from 'ai';
import { chargeResult, chargeStatement, type ChargeResult } from '../credits/ledger.js';
import { spiceInsert, spiceValues, type ResponseStats } from './history.js';
import { itemAgentSet, itemInsert, itemValues, type NewItem } from './items.js';

export interface AnswerRecord {
  charge: { installationId: number; agentId: string; units: number; curTokens: number; description: string };
  /** The answer's (first) message for the model's context, with the call's stats. */
  message: ModelMessage;
  stats: ResponseStats;
  /** The feed item that shows the answer's text, when it has any. */
  item: (NewItem & { actionUuid: string }) | null;
}

/**
 * A model call's charge, its answer for the context and the answer's feed item, in one statement:
 * the charge's (ledger.ts) with the two inserts as more data-modifying CTEs and the item's times
 * on the agent row the charge updates anyway. All or nothing: an answer is never stored uncharged
 * or charged unstored. Three statements were a third of the embedded database's work at the end of
 * a round of 100 agents, where every answer's statements queue behind all the others' on its one
 * thread (issue 15; docs/decisions.md "A model call's end").
 */
export async function recordAnswer(
  db: Db,
  answer: AnswerRecord,
): Promise<ChargeResult & { timestamp: string; json: string }> {
  const spice = spiceValues(answer.charge.agentId, answer.message, { responseStats: answer.stats }, 'spice_');
  const item = answer.item ? itemValues(answer.charge.agentId, answer.item, 'item_') : null;
  const spiceCte = (d: Db) =>
    d.$with('answer_spice').as(spiceInsert(d, 'spice_').returning({ id: spiceMessages.id }));
  const statement = item
    ? prepared(db, 'record_answer_with_item', (d, name) =>
        chargeStatement(d, {
          agentSet: itemAgentSet('item_'),
          ctes: [spiceCte(d), d.$with('answer_item').as(itemInsert(d, 'item_'))],
        }).prepare(name),
      )
    : prepared(db, 'record_answer', (d, name) => chargeStatement(d, { ctes: [spiceCte(d)] }).prepare(name));
  const [row] = await statement.execute({ ...answer.charge, ...spice.values, ...item?.values });
  return { ...chargeResult(row, answer.charge.installationId), timestamp: spice.timestamp, json: spice.json };
}
