import {
  advancedLatest,
  agents,
  billingAccounts,
  coalesced,
  conversationItems,
  creditTransactions,
  installations,
  orderedJsonRows,
  prepared,
  spiceMessages,
  type Db,
} from '@tandem/db';
import type { ModelMessage } from 'ai';
import { sql } from 'drizzle-orm';
import { autoFillWanted, chargeResult, type ChargeResult } from '../credits/ledger.js';
import { FAILED_STATUS } from './asleep.js';
import { hasUnfedMessages, spiceValues, type ResponseStats } from './history.js';
import { itemValues, type NewItem } from './items.js';

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

export type RecordedAnswer = ChargeResult & { timestamp: string; json: string; ended: boolean };

/** One answer as a row of the statement's JSON array, with what its caller gets back. */
interface AnswerRow {
  agentId: string;
  /** The row as JSON text (its contents spliced in as the JSON they already are). */
  json: string;
}

/** The statement's row of an answer. */
interface AnswerResult {
  balance: unknown;
  spent: unknown;
  autoFillDue: unknown;
  ended: unknown;
}

/**
 * A model call's charge, its answer for the context and the answer's feed item, in one statement:
 * the charge (the installation's balance, a ledger row and the agent's counters, as ledger.ts's
 * chargeAgentCall makes it), with the two inserts as more data-modifying CTEs and the item's times
 * on the agent row the charge updates anyway. All or nothing: an answer is never stored uncharged
 * or charged unstored (docs/decisions.md "An answer stored with its charge").
 *
 * A final answer also sets the agent 'paused' in it when nothing else is to be done, which is what
 * the run's next step would have read and written in two more statements (`ended`: the run ends
 * there, idle). The check reads the row as the step would: an interrupt asked for, a user message
 * not fed yet, or an admin's Fail leaves the status alone and the run goes on to its next step.
 *
 * Answers that arrive together go as one statement (coalesced.ts): a hundred agents given a model
 * that answers in a second get their answers within milliseconds of each other, and one statement
 * each queued on the embedded database's one thread for a tenth of a second (issue 15;
 * docs/decisions.md "Answers and creations of agents that arrive together recorded as one").
 * `db` is the database, not a transaction.
 */
export async function recordAnswer(db: Db, answer: AnswerRecord): Promise<RecordedAnswer> {
  const { charge } = answer;
  const spice = spiceValues(charge.agentId, answer.message, { responseStats: answer.stats });
  const item = answer.item ? itemValues(charge.agentId, answer.item).values : null;
  const row: AnswerRow = {
    agentId: charge.agentId,
    json: jsonRow(
      {
        installation_id: charge.installationId,
        agent_id: charge.agentId,
        units: charge.units,
        cur_tokens: charge.curTokens,
        description: charge.description,
        may_end: answer.mayEnd,
        spice_timestamp: spice.timestamp,
        spice_role: answer.message.role,
        item_timestamp: item?.timestamp ?? null,
        item_at: item?.at ?? null,
        item_type: item?.itemType ?? null,
        item_action_uuid: item?.actionUuid ?? null,
        item_action_type: item?.actionType ?? null,
        item_pid: item?.pid ?? null,
        item_user_id: item?.userId ?? null,
        item_data: item?.data ?? null,
      },
      // Already JSON text (spiceValues): spliced in as it is, not encoded again.
      { spice_content: spice.json, spice_stats: spice.values.responseStats as string },
    ),
  };
  let record = recorders.get(db);
  if (!record) {
    record = coalesced((rows: AnswerRow[]) => recordAnswers(db, rows), { maxKeys: 100 });
    recorders.set(db, record);
  }
  const result = await record(row);
  return {
    ...chargeResult(result, charge.installationId),
    timestamp: spice.timestamp,
    json: spice.json,
    ended: result?.ended === true,
  };
}

const recorders = new WeakMap<Db, (row: AnswerRow) => Promise<AnswerResult | undefined>>();

/** A JSON object's text from `fields`, with `raw` values that are JSON text already. */
function jsonRow(fields: Record<string, unknown>, raw: Record<string, string>): string {
  const more = Object.entries(raw).map(([key, json]) => `,${JSON.stringify(key)}:${json}`);
  return `${JSON.stringify(fields).slice(0, -1)}${more.join('')}}`;
}

/** The answers' statement, one row each: every row's agent must be another agent. */
async function recordAnswers(db: Db, rows: AnswerRow[]): Promise<Map<AnswerRow, AnswerResult>> {
  // One agent's row can be updated once in a statement: two of its answers at once (which its
  // one run never makes) would throw here, and coalesced() then records each alone.
  if (new Set(rows.map((row) => row.agentId)).size < rows.length)
    throw new Error('Two answers of one agent in one statement');
  const payload = orderedJsonRows(rows.map((row) => row.json));
  const statement = prepared(db, 'record_answers', (d, name) => answerStatement(d).prepare(name));
  const results = await statement.execute({ rows: payload });
  return new Map(results.map(({ ord, ...result }) => [rows[Number(ord)]!, result]));
}

/**
 * recordAnswers' statement over `rows`, a JSON array of answers. The charges follow the rules of
 * ledger.ts's chargeStatement, for many rows: each installation's balance goes down once by its
 * answers' sum (a statement updates a row once), each answer has its ledger row (in the array's
 * order, as `seq` shows) and each caller gets the balance after its own charge, as if the charges
 * had run one after another in that order.
 */
function answerStatement(db: Db) {
  const rows = db.$with('answer_rows', { ord: sql<number>`ord` }).as(
    sql`select * from json_to_recordset(${sql.placeholder('rows')}::json) as r(
      ord integer, installation_id bigint, agent_id uuid, units bigint, cur_tokens integer,
      description text, may_end boolean, spice_timestamp timestamptz, spice_role text,
      spice_content jsonb, spice_stats jsonb, item_timestamp timestamptz, item_at timestamptz,
      item_type text, item_action_uuid uuid, item_action_type text, item_pid integer,
      item_user_id uuid, item_data jsonb)`,
  );
  // Read before the charge's update, from the same snapshot as every other part of the statement.
  const ends = db.$with('answer_ends', { ends: sql<boolean>`ends` }).as(
    sql`select r.agent_id, (r.may_end and ${agents.status} <> ${FAILED_STATUS}
        and not ${agents.interruptRequested} and not ${hasUnfedMessages}) as ends
      from answer_rows r join ${agents} on ${agents.id} = r.agent_id`,
  );
  const totals = db
    .$with('answer_totals', { units: sql<number>`units` })
    .as(sql`select installation_id, sum(units)::bigint as units from answer_rows group by installation_id`);
  const installation = db.$with('charged_installation', { balance: sql<number>`balance` }).as(
    sql`update ${installations} set credit_balance = ${installations.creditBalance} - t.units
      from answer_totals t where ${installations.id} = t.installation_id
      returning ${installations.id} as id, ${installations.creditBalance} as balance`,
  );
  const ledger = db.$with('ledger_entry', { id: sql<string>`id` }).as(
    sql`insert into ${creditTransactions} (installation_id, amount, kind, agent_id, invoice_id, description)
      select installation_id, -units, 'agent', agent_id, null, description from answer_rows order by ord
      returning id`,
  );
  const at = sql`r.item_at`;
  // An answer that ends the run also clears a Stop that committed after the snapshot: there is
  // nothing left to stop once the agent is idle, and left set it would end the agent's next run
  // at once (docs/decisions.md "A Stop that meets the end of a run").
  const agent = db.$with('charged_agent', { spent: sql<number>`spent` }).as(
    sql`update ${agents} set
        credits_spent = ${agents.creditsSpent} + r.units,
        spent_since_message = ${agents.spentSinceMessage} + r.units,
        cur_tokens = r.cur_tokens,
        latest_timestamp = case when ${at} is null then ${agents.latestTimestamp} else ${advancedLatest(at)} end,
        last_active = coalesce(${at}, ${agents.lastActive}),
        status = case when e.ends then 'paused' else ${agents.status} end,
        interrupt_requested = case when e.ends then false else ${agents.interruptRequested} end
      from answer_rows r join answer_ends e on e.agent_id = r.agent_id
      where ${agents.id} = r.agent_id
      returning ${agents.id} as id, ${agents.spentSinceMessage} as spent`,
  );
  const spice = db.$with('answer_spice', { id: sql<string>`id` }).as(
    sql`insert into ${spiceMessages} (agent_id, "timestamp", role, content, action_uuid, response_stats)
      select agent_id, spice_timestamp, spice_role, spice_content, null, spice_stats from answer_rows
      returning id`,
  );
  const items = db.$with('answer_items', { id: sql<string>`id` }).as(
    sql`insert into ${conversationItems} (agent_id, "timestamp", item_type, action_uuid, action_type, pid, user_id, data)
      select agent_id, item_timestamp, item_type, item_action_uuid, item_action_type, item_pid,
        item_user_id, item_data
      from answer_rows where item_action_uuid is not null
      returning id`,
  );
  // Each answer's balance after its own charge: the balance before them all, less the charges of
  // its installation up to and including its own.
  const balances = db.$with('answer_balances', { balance: sql<number>`balance` }).as(
    sql`select r.ord, r.installation_id, r.agent_id,
        i.balance + t.units - sum(r.units) over (partition by r.installation_id order by r.ord) as balance
      from answer_rows r
      join charged_installation i on i.id = r.installation_id
      join answer_totals t on t.installation_id = r.installation_id`,
  );
  return db
    .with(rows, ends, totals, installation, ledger, agent, spice, items, balances)
    .select({
      ord: sql<number>`b.ord`,
      balance: sql<string | number>`b.balance`,
      spent: sql<string | number | null>`a.spent`,
      autoFillDue: sql<boolean>`exists (select 1 from ${billingAccounts}
        where ${billingAccounts.installationId} = b.installation_id and ${autoFillWanted(sql`b.balance`)})`,
      ended: sql<boolean>`coalesce(e.ends, false)`,
    })
    .from(
      sql`answer_balances b left join charged_agent a on a.id = b.agent_id
        left join answer_ends e on e.agent_id = b.agent_id`,
    );
}
