import { prefetchStats } from '@tandem/agent/testing';
import { testDatabaseKinds } from '@tandem/db/testing';
import { agents, agentSources, conversationItems, repositories, users, webhookDeliveries } from '@tandem/db';
import { and, asc, desc, eq, gt } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADD_SUBTRACT_EDIT, until, writeScriptFile } from '../testing/agent-harness.js';
import { connectCodeHost, settle as settleAll } from '../testing/code-host-product.js';
import { useTestApp, type TestApp } from '../testing/test-app.js';

/**
 * GitHub-driven agents end to end: people comment on the local code host (its REST API, as
 * themselves), its signed webhooks reach the real server, and agents on the scripted model answer
 * there. Only the code host's ids are patched into the test's rows (its sign-in stands in).
 */
const scriptFile = writeScriptFile([
  {
    match: 'subtract',
    steps: [
      { text: 'On it.', tool_calls: [{ name: 'edit_file', args: ADD_SUBTRACT_EDIT }] },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
      {
        tool_calls: [
          { name: 'open_pull_request', args: { title: 'Add subtract', body: 'Adds subtract(a, b).' } },
        ],
      },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Added subtract in a pull request.' } }] },
    ],
  },
  {
    match: 'wait for CI',
    steps: [
      { tool_calls: [{ name: 'wait', args: { seconds: 3600 } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'CI is green now.' } }] },
    ],
  },
  // Anything else: one answer, then "Done." for every later message.
  { steps: [{ tool_calls: [{ name: 'task_complete', args: { summary: 'Looked into it.' } }] }] },
]);

describe.each(testDatabaseKinds())('agents that live on the code host on %s', (kind) => {
  const testApp = useTestApp(kind, {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  const tokens = new Map<string, string>();

  /** The code host's REST API as one of its seeded people. */
  async function rest(login: string, method: string, path: string, body?: unknown) {
    if (!tokens.has(login)) tokens.set(login, await app.codeHost!.issueUserToken(login));
    const res = await fetch(`${app.codeHost!.apiUrl}${path}`, {
      method,
      headers: { authorization: `token ${tokens.get(login)}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown> & { id: number; number: number; body: string }>;
  }

  const settle = () => settleAll(app);

  const agentsOn = (fullName: string) =>
    app.database.db
      .select({ id: agents.id, creatorId: agents.creatorId, status: agents.status })
      .from(agents)
      .innerJoin(repositories, eq(repositories.id, agents.repositoryId))
      .where(eq(repositories.fullName, fullName));

  const messagesOf = (agentId: string) =>
    app.database.db
      .select({ actionType: conversationItems.actionType, data: conversationItems.data })
      .from(conversationItems)
      .where(and(eq(conversationItems.agentId, agentId), eq(conversationItems.itemType, 'message')))
      .orderBy(asc(conversationItems.timestamp));

  beforeAll(async () => {
    app = testApp();
    await app.signIn({
      username: 'ada',
      installations: [
        { id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] },
        { id: 1001, name: 'ada', role: 'admin', repos: ['ada/playground'] },
      ],
    });
    await connectCodeHost(app, {
      users: { ada: 1 },
      repositories: { 'acme/webapp': 200, 'ada/playground': 202 },
      defaultModel: 'scripted',
    });
  });

  it('starts an agent from a tag in an issue comment; it reacts, opens a closing PR and answers', async () => {
    const { taken } = prefetchStats();
    const issue = await rest('ada', 'POST', '/repos/acme/webapp/issues', {
      title: 'Subtract is missing',
      body: 'We need it.',
    });
    const comment = await rest('ada', 'POST', `/repos/acme/webapp/issues/${issue.number}/comments`, {
      body: '@tandem please add a subtract function',
    });
    await settle();

    const [agent] = await agentsOn('acme/webapp');
    expect(agent).toBeDefined();
    // Its first prompt's instructions were asked for as the tag created it (instruction-reads.ts).
    expect(prefetchStats().taken).toBe(taken + 1);
    const [ada] = await app.database.db.select().from(users).where(eq(users.username, 'ada'));
    expect(agent!.creatorId).toBe(ada!.id);
    const [first] = await messagesOf(agent!.id);
    expect(first).toMatchObject({
      actionType: 'issue_comment',
      data: expect.objectContaining({
        message: '@tandem please add a subtract function',
        username: 'ada',
        number: issue.number,
        repository_name: 'acme/webapp',
        html_url: expect.stringContaining(`#issuecomment-${comment.id}`),
      }),
    });
    const sources = await app.database.db
      .select({ type: agentSources.type, number: agentSources.number })
      .from(agentSources)
      .where(eq(agentSources.agentId, agent!.id));
    expect(sources).toContainEqual({ type: 'issue', number: issue.number });

    // 'eyes' on the comment, as the App's bot.
    const reactions = (await rest(
      'ada',
      'GET',
      `/repos/acme/webapp/issues/comments/${comment.id}/reactions`,
    )) as unknown as { content: string; user: { login: string; type: string } }[];
    expect(reactions).toEqual([
      expect.objectContaining({ content: 'eyes', user: expect.objectContaining({ type: 'Bot' }) }),
    ]);
    // The pull request closes the issue, and the bot answers on the issue with what it did.
    const pulls = (await rest('ada', 'GET', '/repos/acme/webapp/pulls?state=open')) as unknown as {
      number: number;
      body: string;
    }[];
    expect(pulls).toHaveLength(1);
    expect(pulls[0]!.body).toContain(`Closes #${issue.number}`);
    const comments = (await rest(
      'ada',
      'GET',
      `/repos/acme/webapp/issues/${issue.number}/comments`,
    )) as unknown as { body: string; user: { login: string } }[];
    expect(comments.at(-1)).toMatchObject({
      body: `Added subtract in a pull request.\n\nPull request: #${pulls[0]!.number}`,
      user: { login: 'tandem[bot]' },
    });

    // A second comment wakes the same agent; no second agent starts.
    await rest('ada', 'POST', `/repos/acme/webapp/issues/${issue.number}/comments`, {
      body: 'Thanks! Also check the README.',
    });
    await settle();
    expect(await agentsOn('acme/webapp')).toHaveLength(1);
    expect((await messagesOf(agent!.id)).map((m) => m.data.message)).toContain(
      'Thanks! Also check the README.',
    );

    // Under 'tagged', an untagged comment is not delivered; a tagged one is.
    await app.database.db
      .update(agentSources)
      .set({ behavior: 'tagged' })
      .where(and(eq(agentSources.agentId, agent!.id), eq(agentSources.number, issue.number)));
    await rest('ada', 'POST', `/repos/acme/webapp/issues/${issue.number}/comments`, {
      body: 'Just a note for people.',
    });
    await rest('ada', 'POST', `/repos/acme/webapp/issues/${issue.number}/comments`, {
      body: '@Tandem one more thing',
    });
    await settle();
    const texts = (await messagesOf(agent!.id)).map((m) => m.data.message);
    expect(texts).not.toContain('Just a note for people.');
    expect(texts).toContain('@Tandem one more thing');
  });

  it('brings a review with inline comments that tags the bot to the agent on that pull request', async () => {
    const [agent] = await agentsOn('acme/webapp');
    const [pull] = (await rest('ada', 'GET', '/repos/acme/webapp/pulls?state=open')) as unknown as {
      number: number;
    }[];
    // The agent's own pull request is one of its sources once opened.
    await until('the PR source', async () => {
      const rows = await app.database.db
        .select()
        .from(agentSources)
        .where(and(eq(agentSources.agentId, agent!.id), eq(agentSources.number, pull!.number)));
      return rows.length ? rows : undefined;
    });
    await rest('ada', 'POST', `/repos/acme/webapp/pulls/${pull!.number}/reviews`, {
      event: 'COMMENT',
      body: '@tandem a few things',
      comments: [
        { path: 'src/math.js', line: 6, side: 'RIGHT', body: 'Handle NaN here' },
        { path: 'src/math.js', start_line: 1, line: 3, side: 'RIGHT', body: 'Add a doc comment' },
      ],
    });
    await settle();
    const review = (await messagesOf(agent!.id)).find((m) => m.actionType === 'pull_request_review');
    expect(review?.data).toMatchObject({
      message: '@tandem a few things',
      number: pull!.number,
      review_comments: [
        expect.objectContaining({ path: 'src/math.js', line: 6, side: 'RIGHT', body: 'Handle NaN here' }),
        expect.objectContaining({ start_line: 1, line: 3, body: 'Add a doc comment' }),
      ],
    });
    expect(await agentsOn('acme/webapp')).toHaveLength(1);
  });

  it('shows a merged pull request in the feed without waking the agent', async () => {
    const [agent] = await agentsOn('acme/webapp');
    const [pull] = (await rest('ada', 'GET', '/repos/acme/webapp/pulls?state=open')) as unknown as {
      number: number;
    }[];
    const before = (await messagesOf(agent!.id)).length;
    await rest('ada', 'PUT', `/repos/acme/webapp/pulls/${pull!.number}/merge`, {});
    await settle();
    const lifecycle = await app.database.db
      .select({ data: conversationItems.data })
      .from(conversationItems)
      .where(
        and(eq(conversationItems.agentId, agent!.id), eq(conversationItems.itemType, 'number_lifecycle')),
      );
    expect(lifecycle.map((l) => l.data)).toContainEqual(
      expect.objectContaining({ action: 'merged', number: pull!.number, type: 'pull_request' }),
    );
    const [source] = await app.database.db
      .select({ state: agentSources.state })
      .from(agentSources)
      .where(and(eq(agentSources.agentId, agent!.id), eq(agentSources.number, pull!.number)));
    expect(source?.state).toBe('merged');
    expect((await messagesOf(agent!.id)).length).toBe(before);
  });

  it('starts nothing for people without write access, nor for the bot itself', async () => {
    const issue = await rest('ada', 'POST', '/repos/ada/playground/issues', { title: 'Ideas', body: '' });
    // eve can read the public repository, so she can comment, but she cannot write to it.
    await rest('eve', 'POST', `/repos/ada/playground/issues/${issue.number}/comments`, {
      body: '@tandem delete everything',
    });
    await settle();
    expect(await agentsOn('ada/playground')).toHaveLength(0);

    const botToken = await app.codeHost!.issueInstallationToken(1001);
    const res = await fetch(`${app.codeHost!.apiUrl}/repos/ada/playground/issues/${issue.number}/comments`, {
      method: 'POST',
      headers: { authorization: `token ${botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: '@tandem talk to yourself' }),
    });
    expect(res.status).toBe(201);
    await settle();
    expect(await agentsOn('ada/playground')).toHaveLength(0);
  });

  it('starts an agent on a new issue with always-ask, and a replayed delivery does nothing', async () => {
    await app.database.db
      .update(repositories)
      .set({ alwaysAsk: true })
      .where(eq(repositories.fullName, 'ada/playground'));
    await rest('ada', 'POST', '/repos/ada/playground/issues', {
      title: 'Write a haiku',
      body: 'About merge conflicts.',
    });
    await settle();
    const started = await agentsOn('ada/playground');
    expect(started).toHaveLength(1);
    const [first] = await messagesOf(started[0]!.id);
    expect(first).toMatchObject({
      actionType: 'issue_comment',
      data: expect.objectContaining({ action: 'opened', message: 'Write a haiku\n\nAbout merge conflicts.' }),
    });

    // The code host's redelivery of the same delivery (same id, same signed body) is a duplicate.
    const jwt = await appJwt();
    const deliveries = (await fetch(`${app.codeHost!.apiUrl}/app/hook/deliveries`, {
      headers: { authorization: `Bearer ${jwt}` },
    }).then((r) => r.json())) as {
      guid: string;
      event: string;
      action: string | null;
      status_code: number;
    }[];
    const opened = deliveries.find((d) => d.event === 'issues' && d.action === 'opened');
    expect(opened?.status_code).toBe(200);
    const again = await fetch(`${app.codeHost!.apiUrl}/app/hook/deliveries/${opened!.guid}/attempts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
    });
    expect(again.status).toBe(202);
    await settle();
    const redelivered = (await fetch(`${app.codeHost!.apiUrl}/app/hook/deliveries`, {
      headers: { authorization: `Bearer ${jwt}` },
    }).then((r) => r.json())) as { guid: string; redelivery: boolean; status_code: number }[];
    expect(redelivered.find((d) => d.guid === opened!.guid)).toMatchObject({
      redelivery: true,
      status_code: 200,
    });
    expect(await agentsOn('ada/playground')).toHaveLength(1);
    expect(await messagesOf(started[0]!.id)).toHaveLength(1);
  });

  it('wakes a waiting agent with a comment on the issue it follows', async () => {
    const issue = await rest('ada', 'POST', '/repos/acme/webapp/issues', { title: 'Release', body: '' });
    await rest('ada', 'POST', `/repos/acme/webapp/issues/${issue.number}/comments`, {
      body: '@tandem wait for CI, then tell me',
    });
    await settle();
    const sources = await app.database.db
      .select({ agentId: agentSources.agentId })
      .from(agentSources)
      .where(eq(agentSources.number, issue.number));
    const agentId = sources[0]!.agentId;
    const status = async () =>
      (await app.database.db.select().from(agents).where(eq(agents.id, agentId)))[0]!.status;
    expect(await status()).toBe('waiting');

    await rest('ada', 'POST', `/repos/acme/webapp/issues/${issue.number}/comments`, { body: 'CI passed.' });
    await settle();
    expect(await status()).toBe('paused');
    const wakes = await app.database.db
      .select({ data: conversationItems.data })
      .from(conversationItems)
      .where(and(eq(conversationItems.agentId, agentId), eq(conversationItems.actionType, 'WakeEvent')));
    expect(wakes.map((w) => w.data.wake_status)).toEqual(['message']);
    const comments = (await rest(
      'ada',
      'GET',
      `/repos/acme/webapp/issues/${issue.number}/comments`,
    )) as unknown as { body: string }[];
    expect(comments.at(-1)!.body).toBe('CI is green now.');
  });

  it('backs off when the code host rate-limits it, then does the work', async () => {
    const issue = await rest('ada', 'POST', '/repos/acme/webapp/issues', { title: 'Limits', body: '' });
    await settle();
    // The product's first call after the comment (the commenter's permission) meets a secondary
    // limit; ada's own requests do not. Set before the comment: its delivery starts at once.
    const before = app.codeHost!.rateLimitedResponses();
    const ada = `token ${tokens.get('ada')}`;
    app.codeHost!.simulateRateLimit({
      kind: 'secondary',
      requests: 1,
      retryAfterSeconds: 1,
      only: (authorization) => authorization !== ada,
    });
    await rest('ada', 'POST', `/repos/acme/webapp/issues/${issue.number}/comments`, {
      body: '@tandem have a look at the limits',
    });
    await settle();
    expect(app.codeHost!.rateLimitedResponses() - before).toBe(1);
    // The client waited out retry-after itself: the delivery went through on its first attempt.
    const [delivery] = await app.database.db
      .select({ attempts: webhookDeliveries.attempts, processedAt: webhookDeliveries.processedAt })
      .from(webhookDeliveries)
      // The person's comment, not the bot's answer (recorded later, but never queued: attempts 0).
      .where(and(eq(webhookDeliveries.event, 'issue_comment'), gt(webhookDeliveries.attempts, 0)))
      .orderBy(desc(webhookDeliveries.receivedAt))
      .limit(1);
    expect(delivery).toMatchObject({ attempts: 1, processedAt: expect.any(Date) });
    const [source] = await app.database.db
      .select({ agentId: agentSources.agentId })
      .from(agentSources)
      .where(eq(agentSources.number, issue.number));
    expect(source).toBeDefined();
    const comments = (await rest(
      'ada',
      'GET',
      `/repos/acme/webapp/issues/${issue.number}/comments`,
    )) as unknown as { body: string; user: { login: string } }[];
    expect(comments.at(-1)).toMatchObject({ body: 'Looked into it.', user: { login: 'tandem[bot]' } });
  });

  async function appJwt(): Promise<string> {
    const { SignJWT, importPKCS8 } = await import('jose');
    const { credentials } = app.codeHost!;
    const key = await importPKCS8(credentials.privateKey, 'RS256');
    return new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(String(credentials.appId))
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
  }
});
