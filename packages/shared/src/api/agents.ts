import { z } from 'zod';
import { apiTimestampSchema, timestampInputSchema } from './timestamp.js';
import { userText } from './text.js';

/** The title every agent starts with (workspace §3), until it names itself or is renamed. */
export const DEFAULT_AGENT_TITLE = 'New Chat';

export const TITLE_MESSAGES = {
  length: 'Title must be between 2 and 200 characters',
  lineBreaks: 'Title cannot contain line breaks',
} as const;

/** Agent title rule (workspace §5); null when the title is fine. */
export function titleError(title: string): string | null {
  if (/[\r\n]/.test(title)) return TITLE_MESSAGES.lineBreaks;
  const length = [...title].length;
  if (length < 2 || length > 200) return TITLE_MESSAGES.length;
  return null;
}

export const BRANCH_MESSAGES = {
  empty: 'Branch name cannot be empty',
  invalid: 'Branch name contains invalid characters',
  long: 'Branch name must be at most 255 characters',
} as const;

/** Longest branch name accepted: git refs live in file names, which most file systems cap at 255 bytes. */
export const BRANCH_NAME_MAX_LENGTH = 255;

const hasControlCharacter = (text: string) =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * Branch name rule (workspace §5); null when the name is fine. Control characters (NUL, newlines,
 * DEL…) count as invalid characters: git refuses them in ref names too.
 */
export function branchNameError(name: string): string | null {
  if (!name.trim()) return BRANCH_MESSAGES.empty;
  if (name.length > BRANCH_NAME_MAX_LENGTH) return BRANCH_MESSAGES.long;
  const bad =
    /[ ~^:\\?*[]/.test(name) ||
    hasControlCharacter(name) ||
    name.includes('@{') ||
    name.includes('..') ||
    name.includes('//') ||
    name.startsWith('/') ||
    name.startsWith('-') ||
    name.endsWith('/') ||
    name === '@';
  return bad ? BRANCH_MESSAGES.invalid : null;
}

/** Workspace §3 "Source / subscription": the agent's branch (and PR), issues and PRs it follows. */
export const sourceSchema = z.object({
  id: z.string(),
  created_at: apiTimestampSchema,
  type: z.enum(['branch', 'issue', 'repository', 'unknown']),
  number: z.number().int().nullable(),
  branch: z.string().nullable(),
  behavior: z.string(),
  state: z.enum(['open', 'merged', 'closed']),
  pr_draft: z.string().nullable(),
  pr_draft_base_branch: z.string().nullable(),
});
export type Source = z.infer<typeof sourceSchema>;

export const MESSAGE_MAX_CHARS = 100_000;
/**
 * Images per message and bytes per image (decoded). Ten 5 MB images keep one message's body under
 * ~70 MB (base64 grows data by a third), which bounds what one request makes the server hold; see
 * docs/decisions.md "Limits on messages and images".
 */
export const MAX_IMAGES_PER_MESSAGE = 10;
/** Raster formats every model provider reads; SVG is left out (it is a document, not a picture). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Longest base64 text that can decode to MAX_IMAGE_BYTES, with room for a data: URL prefix. */
export const MAX_IMAGE_DATA_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 100;
export const IMAGE_MESSAGES = {
  type: 'Only PNG, JPEG, GIF and WebP images can be attached',
  size: 'Images must be 5 MB or smaller',
  data: 'Image data must be base64',
  count: `At most ${MAX_IMAGES_PER_MESSAGE} images can be attached to one message`,
} as const;

export const imageAttachmentSchema = z.object({
  data: z.string().max(MAX_IMAGE_DATA_CHARS, IMAGE_MESSAGES.size),
  type: z
    .string()
    .max(100)
    .regex(/^image\//, 'Only images can be attached'),
  name: userText(z.string().max(255)),
});
const imageListSchema = z
  .array(imageAttachmentSchema)
  .max(MAX_IMAGES_PER_MESSAGE, IMAGE_MESSAGES.count)
  .default([]);

/** POST /api/agents/create-agent/{repo_owner}/{repo_name} */
export const createAgentSchema = z.object({
  body: userText(z.string().max(MESSAGE_MAX_CHARS)),
  images: imageListSchema,
  base_branch: z
    .string()
    .nullish()
    .superRefine((value, ctx) => {
      const error = value ? branchNameError(value) : null;
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
  model: z.string().nullish(),
  review_model: z.string().nullish(),
  is_supervisor: z.boolean().default(false),
  supervisor_id: z.string().uuid().nullish(),
});
export type CreateAgentRequest = z.input<typeof createAgentSchema>;

export const createAgentResponseSchema = z.object({
  event_uuid: z.string(),
  temp_title: z.string(),
  agent_id: z.string(),
});

/** Workspace §3: a supervisor's sub-agents (title, sources, status), each linked by its id. */
export const subAgentItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  repo_name: z.string().nullable(),
  sources: z.record(z.string(), z.array(sourceSchema)),
});
export type SubAgentItem = z.infer<typeof subAgentItemSchema>;

/**
 * Whether an agent is active (workspace §4: "a supervisor is active if any sub-agent is"): working
 * itself (WORKING_STATUSES), or a supervisor with a working sub-agent.
 */
export function isActiveAgent(agent: { status: string; sub_agents?: { status: string }[] }): boolean {
  const working = (status: string) => (WORKING_STATUSES as readonly string[]).includes(status);
  return working(agent.status) || (agent.sub_agents ?? []).some((sub) => working(sub.status));
}

/** The fallback title of a supervisor (workspace §2: 'Agent Report'). */
export const SUPERVISOR_FALLBACK_TITLE = 'Agent Report';

export const agentMetadataSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  repo_name: z.string().nullable(),
  installation_id: z.number(),
  sources: z.record(z.string(), z.array(sourceSchema)),
  is_own: z.boolean(),
  model: z.string(),
  review_model: z.string().nullable(),
  summarization_limit: z.number(),
  cur_tokens: z.number(),
  credits_spent: z.number(),
  agent_type: z.string(),
  archived: z.boolean(),
  cur_ports: z.array(z.unknown()),
  base_branch: z.string().nullable(),
  has_unread: z.boolean(),
  creator_username: z.string(),
  created_at: apiTimestampSchema,
  last_active: apiTimestampSchema,
  /** A supervisor's sub-agents, oldest first (empty for editors). */
  sub_agents: z.array(subAgentItemSchema).default([]),
  /** The supervisor this agent reports to, when it is a sub-agent. */
  supervisor: z
    .object({ id: z.string(), title: z.string(), repo_name: z.string().nullable() })
    .nullable()
    .default(null),
});
export type AgentMetadata = z.infer<typeof agentMetadataSchema>;

export const agentListSchema = z.object({ agents: z.array(agentMetadataSchema), count: z.number() });

export const AGENT_ORDERS = ['created_at', 'created_at_asc', 'last_active'] as const;
export const agentListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  rows_per_page: z.coerce.number().int().min(1).max(100).default(25),
  search: z.string().max(500).default(''),
  admin: z.enum(['true', 'false']).default('false'),
  orderBy: z.enum(AGENT_ORDERS).default('created_at'),
  repository_name: z.string().max(200).optional(),
});

/** GET /api/agents/supervisors/{owner}/{repo}: unarchived supervisor agents the viewer can see. */
export const supervisorSchema = z.object({
  id: z.string(),
  title: z.string(),
  base_branch: z.string().nullable(),
});
export const supervisorListSchema = z.array(supervisorSchema);
export type Supervisor = z.infer<typeof supervisorSchema>;

export const trajectoryQuerySchema = z.object({ trajectory_id: z.string().uuid('Unknown agent') });
export const updateTitleSchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  title: userText(
    z.string().superRefine((value, ctx) => {
      const error = titleError(value);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
  ),
});
/** Folders the Run Scripts menu lists (workspace §7). */
export const SCRIPT_PATH_PATTERN = /^\.tandem\/(run|run\/auto|preview)\/[A-Za-z0-9._-]+\.sh$/;
export const SCRIPT_PATH_MESSAGE =
  'Scripts live in .tandem/run, .tandem/run/auto or .tandem/preview and end in .sh';
/** POST /api/agent/run-script */
export const runScriptSchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  script_path: z
    .string()
    .regex(SCRIPT_PATH_PATTERN, SCRIPT_PATH_MESSAGE)
    .refine((path) => !path.includes('..'), SCRIPT_PATH_MESSAGE),
  restart: z.boolean().default(false),
});

/**
 * POST /api/agent/behavior: how a source wakes the agent (spec: "not shown"; see docs/decisions.md).
 * `always`: every new comment or review on it; `tagged`: only comments that mention the bot.
 */
export const SOURCE_BEHAVIORS = ['always', 'tagged'] as const;
export const behaviorSchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  source_id: z.string().uuid('Unknown source'),
  behavior: z.enum(SOURCE_BEHAVIORS),
});

export const archiveSchema = z.object({ trajectory_id: z.string().uuid('Unknown agent') });

export const conversationItemSchema = z
  .object({
    item_type: z.string(),
    action_uuid: z.string(),
    pid: z.number().nullable(),
    timestamp: apiTimestampSchema,
    action_type: z.string().nullable(),
    user_id: z.string().nullable(),
  })
  .catchall(z.unknown());
export const conversationQuerySchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  before: timestampInputSchema.optional(),
});
/**
 * Workspace §3 "Spice item": the model's own messages, sent to admins only. A part's `type` is
 * text, image_url or thinking; any other type is shown as 'Unsupported Message Type'.
 */
export const spicePartSchema = z
  .object({ type: z.string() })
  .catchall(z.unknown())
  .transform((part) => part as { type: string; text?: unknown; image_url?: unknown; thinking?: unknown });
export const spiceItemSchema = z.object({
  id: z.string(),
  timestamp: apiTimestampSchema,
  role: z.enum(['user', 'assistant']),
  content: z.array(spicePartSchema),
  /** Tokens, `time` in seconds and `cost` in cents, on the first message of each model response. */
  response_stats: z.record(z.string(), z.number()).nullable(),
});
export type SpiceItem = z.infer<typeof spiceItemSchema>;

export const conversationResponseSchema = z.object({
  conversation: z.array(conversationItemSchema),
  spice: z.array(spiceItemSchema),
  has_more: z.boolean(),
  oldest_timestamp: apiTimestampSchema.nullable(),
  /** Newest page only: the agent's latest_timestamp (as GET latest-timestamp gives it) at the read. */
  latest_timestamp: apiTimestampSchema.nullable().optional(),
});
export type ConversationItem = z.infer<typeof conversationItemSchema>;
export type ConversationResponse = z.infer<typeof conversationResponseSchema>;
export const latestTimestampSchema = z.object({ latest_timestamp: apiTimestampSchema.nullable() });
export const CONVERSATION_PAGE_SIZE = 50;

/** POST /api/agent/message?trajectory_id= */
export const MAX_REVIEW_COMMENTS_PER_MESSAGE = 100;
export const REVIEW_COMMENT_MAX_CHARS = 10_000;
/**
 * A review comment sent with a message (the web app's pending comments). Only these fields are
 * kept: the list is stored as it is and later read back by the agent runtime.
 */
export const reviewCommentSchema = z.object({
  id: z.string().max(100).optional(),
  path: z.string().max(4096),
  body: userText(z.string().max(REVIEW_COMMENT_MAX_CHARS)),
  line: z.number().int().min(0).max(100_000_000),
  start_line: z.number().int().min(0).max(100_000_000).nullish(),
  side: z.enum(['LEFT', 'RIGHT']).optional(),
  commit_id: z.string().max(64).nullish(),
  sent: z.boolean().optional(),
  created_at: z.string().max(64).optional(),
});

export const sendMessageSchema = z.object({
  message: userText(z.string().max(MESSAGE_MAX_CHARS)).default(''),
  images: imageListSchema,
  comments: z.array(reviewCommentSchema).max(MAX_REVIEW_COMMENTS_PER_MESSAGE).default([]),
});
export const eventUuidResponseSchema = z.object({ event_uuid: z.string() });
/** archive / unarchive: an unarchive refused because another active agent has the number. */
export const archiveResponseSchema = z.object({
  success: z.boolean(),
  error_data: z.object({ html_url: z.string(), number: z.number() }).optional(),
});

/** PUT /api/agent/update-model and update-review-model (`model` null turns the reviewer off). */
export const updateModelSchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  model: z.string().nullable(),
});
/** PUT /api/agent/update-summarization-limit; the number arrives as typed so the spec's messages apply. */
export const updateSummarizationLimitSchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  summarization_limit: z.union([z.string(), z.number()]).transform(String),
});

export const statusCountItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  repo_name: z.string().nullable(),
});
export const statusCountsSchema = z.object({
  running_agents: z.array(statusCountItemSchema),
  unread_agents: z.array(statusCountItemSchema),
});
export type StatusCounts = z.infer<typeof statusCountsSchema>;
/**
 * Statuses in which an agent counts as working (workspace §4). 'waiting': its wait tool ended the
 * run until a timer, a message or a comment wakes it; it holds no runner slot but is not done.
 */
export const WORKING_STATUSES = ['open', 'pending', 'waiting'] as const;
