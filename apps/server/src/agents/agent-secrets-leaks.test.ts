import {
  startChatCompletionsServer,
  type ChatCompletionsRequest,
  type ChatCompletionsServer,
  type FakeChatResponse,
} from '@tandem/agent/testing';
import { agents, conversationItems, scriptLogs, spiceMessages } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { createAgentResponseSchema } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../testing/agent-harness.js';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * A secret must not leave the sandbox in clear, however a command or the model spells it: printed
 * in pieces (across reads, feed items and tool results), encoded (base64, hex, reversed, URL
 * encoding), or written by the model into a commit, a pull request, a comment or an issue.
 * The model is a local chat-completions server, so the prompts it received are on record.
 */
const SECRET = 'sk-live/7f3a+9c2e=5b1d';
const SPLIT = 9;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const hex = (text: string) => Buffer.from(text).toString('hex');
const rev = (text: string) => [...text].reverse().join('');
const urlSafe = (base64: string) => base64.replace(/\+/g, '-').replace(/\//g, '_');

/** The spellings a leak would have; base64 as the characters that depend on the value alone. */
function leakedForms(): string[] {
  const forms = [SECRET, rev(SECRET), hex(SECRET), hex(SECRET).toUpperCase(), encodeURIComponent(SECRET)];
  for (const offset of [0, 1, 2]) {
    const encoded = b64('\0'.repeat(offset) + SECRET);
    const stable = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + SECRET.length) * 8) / 6));
    forms.push(stable, urlSafe(stable));
  }
  return forms;
}

/** Which spellings of the secret `text` carries (line breaks and JSON's `\n` ignored). */
function leaks(text: string): string[] {
  const flat = text.replace(/\\n|\n|\r/g, '');
  return leakedForms().filter((form) => flat.includes(form));
}

const URL_ENCODE = `urlenc() { local s="$1" i c; for ((i=0; i<\${#s}; i++)); do c=\${s:i:1}; case $c in [a-zA-Z0-9._~-]) printf %s "$c";; *) printf '%%%02X' "'$c";; esac; done; echo; }`;

type Step = (request: ChatCompletionsRequest) => FakeChatResponse;
const call = (name: string, args: Record<string, unknown>): FakeChatResponse => ({
  tool_calls: [{ name, arguments: args }],
});

/** The number in the latest tool result that matches `pattern` (a pid, a pull request). */
function fromLastResult(request: ChatCompletionsRequest, pattern: RegExp): number {
  const results = (request.messages as { role: string; content?: unknown }[]).filter(
    (m) => m.role === 'tool',
  );
  const match = pattern.exec(String(results.at(-1)?.content ?? ''));
  if (!match) throw new Error(`no ${pattern} in the last tool result`);
  return Number(match[1]);
}

const leakSteps: Step[] = [
  // Printed in two pieces with a pause: two reads, two feed items.
  () =>
    call('run_command', {
      command: `printf 'token=%s' "\${DEPLOY_TOKEN:0:${SPLIT}}"; sleep 3; printf '%s\\n' "\${DEPLOY_TOKEN:${SPLIT}}"`,
    }),
  // Encoded by standard tools.
  () =>
    call('run_command', {
      command: [
        'echo "$DEPLOY_TOKEN" | base64',
        'echo "$DEPLOY_TOKEN" | base64 -w 8',
        `printf 'ab%s' "$DEPLOY_TOKEN" | base64 | tr '+/' '-_'`,
        'echo "$DEPLOY_TOKEN" | xxd -p',
        'printf %s "$DEPLOY_TOKEN" | xxd -p -u',
        'echo "$DEPLOY_TOKEN" | rev',
        URL_ENCODE,
        'urlenc "$DEPLOY_TOKEN"',
      ].join('\n'),
    }),
  // A background process whose halves reach the model in two tool results.
  () =>
    call('run_command', {
      command: `read a; printf 'half=%s' "\${DEPLOY_TOKEN:0:${SPLIT}}"; read b; printf '%s\\n' "\${DEPLOY_TOKEN:${SPLIT}}"`,
      background: true,
    }),
  (request) => call('shell_input', { pid: fromLastResult(request, /pid (\d+)/), input: '\n' }),
  (request) => {
    const messages = request.messages as { role: string; content?: unknown }[];
    const started = messages.filter((m) => m.role === 'tool').at(-2);
    return call('shell_input', { pid: Number(/pid (\d+)/.exec(String(started?.content))![1]), input: '\n' });
  },
  // A format script that prints the secret: its log is stored.
  () =>
    call('run_command', {
      command:
        'mkdir -p .tandem && printf \'echo "$DEPLOY_TOKEN" | base64\\necho "$DEPLOY_TOKEN" | rev\\n\' > .tandem/format.sh && echo notes > notes.txt',
    }),
  () => call('commit_and_push', { message: `Add notes ${b64(SECRET)} ${rev(SECRET)}` }),
  () =>
    call('open_pull_request', {
      title: `Notes ${hex(SECRET)}`,
      body: `Token ${encodeURIComponent(SECRET)} / ${urlSafe(b64(`${SECRET}\n`))} / ${SECRET}`,
    }),
  (request) =>
    call('comment', {
      number: fromLastResult(request, /pull request #(\d+)/),
      body: `FYI ${hex(SECRET).toUpperCase()} and ${b64(`x${SECRET}`)}`,
    }),
  () => call('make_issue', { title: `Leak ${rev(SECRET)}`, body: b64(`xy${SECRET}`) }),
  () => ({
    content: `All done: ${b64(SECRET)}`,
    ...call('task_complete', { summary: `The token is ${rev(SECRET)}` }),
  }),
];

/** NUL and lone surrogates from the model and from a command; Postgres rejects both in jsonb. */
const unstorableSteps: Step[] = [
  () => ({
    content: 'Looking \ud800 at it\u0000',
    ...call('run_command', { command: "printf 'a\\0b\\n'; printf '\\xed\\xa0\\x80 \\xff end\\n'; echo ok" }),
  }),
  () => call('set_title', { title: 'Odd\u0000 bytes \udc00 title' }),
  () => call('task_complete', { summary: 'done \u0000 with \ud83d odd text' }),
];

function respond(request: ChatCompletionsRequest): FakeChatResponse {
  const messages = request.messages as { role: string; content?: unknown }[];
  const first = JSON.stringify(messages.find((m) => m.role === 'user')?.content ?? '');
  const steps = first.includes('leak:') ? leakSteps : unstorableSteps;
  const step = steps[messages.filter((m) => m.role === 'assistant').length];
  return step ? step(request) : { content: 'Done.' };
}

describe.each(testDatabaseKinds())('secrets and odd bytes in an agent run (%s)', (kind) => {
  let llm: ChatCompletionsServer;
  let app: TestApp;
  let ada: TestUser;
  const headers = () => ({ authorization: `Bearer ${ada.token}` });

  beforeAll(async () => {
    llm = await startChatCompletionsServer({ respond });
    app = await createTestApp(kind, {
      codeHost: true,
      agents: { models: { openaiCompatible: { url: llm.url, apiKey: undefined, models: ['coder'] } } },
    });
    await app.server.ready();
    ada = await app.signIn({
      username: 'ada',
      admin: true,
      installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
  });

  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  /** Creates an agent and waits until its run has paused. */
  async function runAgent(body: string): Promise<string> {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: headers(),
      payload: { body, model: 'local/coder' },
    });
    expect(res.statusCode).toBe(200);
    const { agent_id } = createAgentResponseSchema.parse(res.json());
    await until(
      'the run to pause',
      async () => {
        const [row] = await app.database.db.select().from(agents).where(eq(agents.id, agent_id));
        const items = await app.database.db
          .select({ type: conversationItems.actionType })
          .from(conversationItems)
          .where(eq(conversationItems.agentId, agent_id));
        const ended = items.some((i) => i.type === 'TaskCompleteEvent' || i.type === 'ErrorEvent');
        return ended && row?.status === 'paused' ? true : undefined;
      },
      { timeoutMs: 120_000 },
    );
    return agent_id;
  }

  const conversation = async (agentId: string) =>
    (
      await app.server.inject({ url: `/api/agent/conversation?trajectory_id=${agentId}`, headers: headers() })
    ).json() as {
      conversation: { item_type: string; action_type?: string; message_type?: string; message?: string }[];
      spice: unknown[];
    };

  it('never shows a secret split, encoded, or written by the model to the code host', async () => {
    const added = await app.server.inject({
      method: 'POST',
      url: '/api/secrets/acme/webapp/add-secret',
      headers: headers(),
      payload: { key: 'deploy_token', value: SECRET },
    });
    expect(added.statusCode).toBe(200);
    const agentId = await runAgent('leak: try to leak the token');
    const page = await conversation(agentId);
    const body = JSON.stringify(page);
    expect(page.conversation.filter((i) => i.action_type === 'ErrorEvent')).toEqual([]);
    expect(page.conversation.some((i) => i.action_type === 'TaskCompleteEvent')).toBe(true);
    expect(page.conversation.some((i) => i.item_type === 'commit')).toBe(true);
    expect(page.conversation.some((i) => i.action_type === 'MakeIssueEvent')).toBe(true);
    // The output still arrived (masked), in more than one feed item for the split print.
    const stdout = page.conversation
      .filter((i) => i.item_type === 'shell_message' && i.message_type === 'stdout')
      .map((i) => i.message ?? '');
    expect(stdout.join('')).toContain('token=[REDACTED]');
    expect(stdout.join('')).toContain('half=[REDACTED]');
    expect(stdout.join('')).toMatch(/ok|REDACTED/);
    expect(page.spice.length).toBeGreaterThan(0);
    expect(leaks(body)).toEqual([]);

    // The database: every item, the model's context, the format script's log.
    const { db } = app.database;
    expect(leaks(JSON.stringify(await db.select().from(conversationItems)))).toEqual([]);
    expect(leaks(JSON.stringify(await db.select().from(spiceMessages)))).toEqual([]);
    const logs = await db.select().from(scriptLogs).where(eq(scriptLogs.agentId, agentId));
    expect(logs.map((l) => l.path)).toEqual(['.tandem/format.sh']);
    expect(logs[0]!.output).toContain('[REDACTED]');
    expect(leaks(JSON.stringify(logs))).toEqual([]);

    // What the model received, over the wire.
    expect(llm.requests.length).toBeGreaterThan(8);
    expect(leaks(JSON.stringify(llm.requests))).toEqual([]);

    // The code host: pull request, its commits, comments and the issue.
    const token = await app.codeHost!.issueInstallationToken(1000);
    const api = async (path: string) => {
      const res = await fetch(`${app.codeHost!.apiUrl}${path}`, {
        headers: { authorization: `token ${token}` },
      });
      expect(res.status).toBe(200);
      return res.json() as Promise<unknown>;
    };
    const pulls = (await api('/repos/acme/webapp/pulls?state=all')) as { number: number; title: string }[];
    const pull = pulls.find((p) => p.title.startsWith('Notes'));
    expect(pull?.title).toBe('Notes [REDACTED]');
    const hosted = [
      pulls,
      await api(`/repos/acme/webapp/pulls/${pull!.number}/commits`),
      await api(`/repos/acme/webapp/issues/${pull!.number}/comments`),
      await api('/repos/acme/webapp/issues?state=all'),
    ];
    expect(JSON.stringify(hosted)).toContain('Add notes [REDACTED]');
    expect(leaks(JSON.stringify(hosted))).toEqual([]);
  }, 180_000);

  it('stores NUL bytes and lone surrogates from a command and the model without pausing', async () => {
    const agentId = await runAgent('odd: print odd bytes');
    const page = await conversation(agentId);
    expect(page.conversation.filter((i) => i.action_type === 'ErrorEvent')).toEqual([]);
    expect(page.conversation.some((i) => i.action_type === 'TaskCompleteEvent')).toBe(true);
    const stdout = page.conversation
      .filter((i) => i.item_type === 'shell_message' && i.message_type === 'stdout')
      .map((i) => i.message ?? '')
      .join('');
    expect(stdout).toContain('ab\n');
    expect(stdout).toContain('end\nok');
    const [row] = await app.database.db.select().from(agents).where(eq(agents.id, agentId));
    expect(row?.title).toBe('Odd bytes \ufffd title');
    const stored = JSON.stringify(await app.database.db.select().from(spiceMessages));
    expect(stored).not.toMatch(/\\u0000|\\ud[89ab]/i);
  }, 180_000);
});
