import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  agentReads,
  agents,
  coalesced,
  conversationItems,
  eventImages,
  orderedJsonRows,
  prepared,
  repositories,
  type Db,
} from '@tandem/db';
import { imageRows, type DecodedImage } from '../images.js';

/** A new agent's row and its first message, whoever asked for it (the web app, the CLI, GitHub). */
export interface NewAgent {
  repositoryId: string;
  installationId: number;
  creatorId: string;
  model: { key: string; defaultLimit: number };
  reviewModel: string | null;
  agentType?: 'editor' | 'supervisor';
  supervisorId?: string | null;
  baseBranch?: string | null;
  purpose?: string | null;
  /** The branch to work on from the start (a reviewer's: the pull request's head). */
  branch?: string | null;
  firstMessage: {
    actionType: string;
    data: Record<string, unknown>;
    images?: DecodedImage[];
  };
}

/**
 * Inserts the agent with the next number of its repository, its first message, that message's
 * images and the creator's read mark, so nothing the user wrote is lost and no agent exists
 * without its message: one statement, all or nothing.
 *
 * The number comes from the repository's counter, bumped by an UPDATE in a data-modifying CTE of
 * the same statement (createStatement). On Postgres that UPDATE's row lock orders creates that
 * run at once, and a create that waited re-reads the counter its predecessor left. No
 * transaction: on the embedded database a transaction holds every other query off for its round
 * trips (issue 15: 100 agents created at once). The counter never goes below the highest number
 * stored, should an agent have been written another way. `db` is the database, not a
 * transaction (creates that arrive together share a statement: insertAgents).
 */
export async function insertAgent(db: Db, spec: NewAgent): Promise<{ agentId: string; eventUuid: string }> {
  const eventUuid = randomUUID();
  // Chosen here so that the rows referring to the agent can be written in the same statement.
  const agentId = randomUUID();
  const row: NewAgentRow = {
    agentId,
    json: JSON.stringify({
      agent_id: agentId,
      event_uuid: eventUuid,
      at: new Date().toISOString(),
      repository_id: spec.repositoryId,
      installation_id: spec.installationId,
      creator_id: spec.creatorId,
      action_type: spec.firstMessage.actionType,
      data: spec.firstMessage.data,
      model: spec.model.key,
      review_model: spec.reviewModel,
      summarization_limit: spec.model.defaultLimit,
      agent_type: spec.agentType ?? 'editor',
      supervisor_id: spec.supervisorId ?? null,
      base_branch: spec.baseBranch ?? null,
      purpose: spec.purpose ?? null,
      branch: spec.branch ?? null,
    }),
  };
  const images = spec.firstMessage.images ?? [];
  if (images.length) {
    // A first message with images, rarer, goes alone, its image rows in the statement.
    const [created] = await createStatement(db, imageRows(agentId, eventUuid, images)).execute({
      rows: orderedJsonRows([row.json]),
    });
    if (!created) throw new Error('The agent was not stored');
    return { agentId, eventUuid };
  }
  let create = creators.get(db);
  if (!create) {
    create = coalesced((rows: NewAgentRow[]) => insertAgents(db, rows), { maxKeys: 100 });
    creators.set(db, create);
  }
  if (!(await create(row))) throw new Error('The agent was not stored');
  return { agentId, eventUuid };
}

/** A new agent as a row of the create's JSON array. */
interface NewAgentRow {
  agentId: string;
  /** The row's JSON object (createStatement's columns but `ord`). */
  json: string;
}

const creators = new WeakMap<Db, (row: NewAgentRow) => Promise<true | undefined>>();

/**
 * The creates that arrive together, as one statement (coalesced.ts): a hundred agents created at
 * once were a hundred statements of four inserts and an update each, queued on the embedded
 * database's one thread before any of their runs could start (issue 15; docs/decisions.md
 * "Answers and creations of agents that arrive together recorded as one").
 */
async function insertAgents(db: Db, rows: NewAgentRow[]): Promise<Map<NewAgentRow, true>> {
  const created = await prepared(db, 'insert_agents', (d, name) =>
    createStatement(d, []).prepare(name),
  ).execute({ rows: orderedJsonRows(rows.map((row) => row.json)) });
  const ids = new Set(created.map((row) => row.id));
  return new Map(rows.filter((row) => ids.has(row.agentId)).map((row) => [row, true]));
}

/**
 * The create of the agents in the JSON array `rows`. Each repository's counter goes up once by
 * its new agents' count (a statement updates a row once), and they take its numbers in the
 * array's order.
 */
function createStatement(db: Db, imageValues: ReturnType<typeof imageRows>) {
  const rows = db.$with('new_agents', { ord: sql<number>`ord` }).as(
    sql`select * from json_to_recordset(${sql.placeholder('rows')}::json) as r(
      ord integer, agent_id uuid, event_uuid uuid, at timestamptz, repository_id uuid,
      installation_id bigint, creator_id uuid, action_type text, data jsonb, model text,
      review_model text, summarization_limit integer, agent_type text, supervisor_id uuid,
      base_branch text, purpose text, branch text)`,
  );
  const counts = db
    .$with('new_counts', { n: sql<number>`n` })
    .as(sql`select repository_id, count(*)::int as n from new_agents group by repository_id`);
  // Never below the highest number stored, should an agent have been written another way.
  const numbered = db.$with('numbered', { last: sql<number>`last` }).as(
    sql`update ${repositories} set last_agent_number = greatest(${repositories.lastAgentNumber},
        (select coalesce(max(${agents.number}), 0) from ${agents}
          where ${agents.repositoryId} = ${repositories.id})) + c.n
      from new_counts c where ${repositories.id} = c.repository_id
      returning ${repositories.id} as id, ${repositories.lastAgentNumber} as last, c.n`,
  );
  const messages = db.$with('first_messages', { id: sql<string>`id` }).as(
    sql`insert into ${conversationItems} (agent_id, "timestamp", item_type, action_uuid, action_type, user_id, data)
      select agent_id, at, 'message', event_uuid, action_type, creator_id, data from new_agents
      returning id`,
  );
  const reads = db.$with('creator_reads', { agentId: sql<string>`agent_id` }).as(
    sql`insert into ${agentReads} (agent_id, user_id, read_at)
      select agent_id, creator_id, at from new_agents returning agent_id`,
  );
  const withImages = imageValues.length
    ? [
        db
          .$with('first_images')
          .as(db.insert(eventImages).values(imageValues).returning({ n: eventImages.n })),
      ]
    : [];
  // No repository row: no number, and the NOT NULL refuses the whole statement.
  const inserted = db.$with('new_agent_ids', { id: sql<string>`id` }).as(
    sql`insert into ${agents} (id, number, status, repository_id, installation_id, creator_id, model,
        review_model, summarization_limit, agent_type, supervisor_id, base_branch, purpose, branch,
        latest_timestamp, last_active)
      select r.agent_id,
        n.last - n.n + row_number() over (partition by r.repository_id order by r.ord),
        'pending', r.repository_id, r.installation_id, r.creator_id, r.model, r.review_model,
        r.summarization_limit, r.agent_type, r.supervisor_id, r.base_branch, r.purpose, r.branch,
        r.at, r.at
      from new_agents r left join numbered n on n.id = r.repository_id
      returning id`,
  );
  return db
    .with(rows, counts, numbered, messages, reads, ...withImages, inserted)
    .select({ id: sql<string>`id` })
    .from(sql`new_agent_ids`);
}
