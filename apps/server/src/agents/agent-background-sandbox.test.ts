import { feedOf } from '../testing/feed.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, prepareSandbox, workspaceLockPath, type EmbeddedRunner } from '@tandem/agent';
import {
  backgroundPrepares,
  backgroundQuiet,
  forgetTakenBranches,
  prefetchStats,
  startChatCompletionsServer,
  type ChatCompletionsRequest,
  type ChatCompletionsServer,
  type FakeChatResponse,
} from '@tandem/agent/testing';
import { agents, creditTransactions, repositories, spiceMessages } from '@tandem/db';
import { createAgentResponseSchema } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '../testing/agent-harness.js';
import { signInAda } from '../testing/scripted-agents.js';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const INSTRUCTIONS = 'Run npm test before every commit.';

/**
 * A fresh agent's first model request goes out while its clone is still being made (run-agent.ts,
 * prompt-facts.ts): the real preparation is held back here until the test lets it go, or fails.
 */
describe('an agent whose sandbox is prepared in the background', () => {
  let llm: ChatCompletionsServer;
  let app: TestApp;
  let ada: TestUser;
  let answer: (
    request: ChatCompletionsRequest,
    index: number,
  ) => FakeChatResponse | Promise<FakeChatResponse> = () => ({ content: 'Done.' });
  /** How the next preparations go: held until `release()`, then real, or failing. */
  let mode: 'real' | 'fail' = 'real';
  let gate: Promise<void> = Promise.resolve();
  let release = () => {};
  let prepared = 0;
  /** A live process that "another worker" holds the next preparation's workspace lock as. */
  let foreignHolder: number | undefined;
  let plantedLock: string | undefined;
  const hold = () => {
    gate = new Promise((resolve) => (release = resolve));
  };

  beforeAll(async () => {
    llm = await startChatCompletionsServer({
      apiKey: 'local-key',
      respond: (request, index) => answer(request, index),
    });
    app = await createTestApp('pglite', {
      codeHost: true,
      agents: {
        models: { openaiCompatible: { url: llm.url, apiKey: 'local-key', models: ['coder'] } },
        prepareSandbox: async (...args) => {
          await gate;
          if (mode === 'fail') throw new Error('cloning failed: the code host went away');
          if (foreignHolder !== undefined) {
            const [deps, agent] = args;
            plantedLock = workspaceLockPath(deps.workspacesDir, agent.id);
            mkdirSync(dirname(plantedLock), { recursive: true });
            writeFileSync(plantedLock, JSON.stringify({ pid: foreignHolder, host: hostname(), token: 'x' }));
            foreignHolder = undefined;
          }
          const sandbox = await prepareSandbox(...args);
          prepared += 1;
          return sandbox;
        },
      },
    });
    await app.server.ready();
    ada = await signInAda(app);
    // Instructions for agents on main, and someone else's branch under the first agent's name.
    const auth = { token: await app.codeHost!.issueInstallationToken(1000) };
    const dir = mkdtempSync(join(tmpdir(), 'tandem-background-'));
    try {
      const repo = join(dir, 'repo');
      expect(
        (await git(dir, ['clone', '--quiet', `${app.codeHost!.url}/acme/webapp.git`, repo], { auth }))
          .exitCode,
      ).toBe(0);
      mkdirSync(join(repo, '.tandem'), { recursive: true });
      writeFileSync(join(repo, '.tandem/README.md'), `${INSTRUCTIONS}\n`);
      const id = ['-c', 'user.name=Someone', '-c', 'user.email=someone@example.com'];
      expect((await git(repo, ['add', '.tandem/README.md'])).exitCode).toBe(0);
      expect((await git(repo, [...id, 'commit', '--quiet', '-m', 'Instructions for agents'])).exitCode).toBe(
        0,
      );
      expect(
        (await git(repo, ['push', '--quiet', 'origin', 'HEAD:main', 'HEAD:tandem-1'], { auth })).exitCode,
      ).toBe(0);
      // A branch whose instructions file is a link (a checkout reads it as none; so must the API).
      rmSync(join(repo, '.tandem/README.md'));
      symlinkSync('../README.md', join(repo, '.tandem/README.md'));
      expect((await git(repo, ['add', '-A'])).exitCode).toBe(0);
      expect((await git(repo, [...id, 'commit', '--quiet', '-m', 'Linked instructions'])).exitCode).toBe(0);
      expect((await git(repo, ['push', '--quiet', 'origin', 'HEAD:links'], { auth })).exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  afterAll(async () => {
    release();
    await app?.close();
    await llm?.close();
  });

  const headers = () => ({ authorization: `Bearer ${ada.token}` });
  const runner = () => app.runner as EmbeddedRunner;
  const create = async (body: string, baseBranch?: string) => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: headers(),
      payload: { body, model: 'local/coder', ...(baseBranch ? { base_branch: baseBranch } : {}) },
    });
    expect(res.statusCode).toBe(200);
    return createAgentResponseSchema.parse(res.json()).agent_id;
  };
  const send = async (agentId: string, message: string) => {
    const res = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agentId}`,
      headers: headers(),
      payload: { message },
    });
    expect(res.statusCode).toBe(200);
  };
  /** The model's next answer runs `command`; the one after completes the task. */
  const runOneCommand = (command: string) => {
    const first = llm.requests.length;
    answer = (_request, index) =>
      index === first
        ? { tool_calls: [{ name: 'run_command', arguments: { command } }] }
        : { content: 'Done.', tool_calls: [{ name: 'task_complete', arguments: { summary: 'Ran.' } }] };
  };
  const feed = (agentId: string) => feedOf(app, ada.token, agentId);
  /** Makes `name` a branch of acme/webapp on the code host: someone else's, at main. */
  const pushBranch = async (name: string) => {
    const auth = { token: await app.codeHost!.issueInstallationToken(1000) };
    const dir = mkdtempSync(join(tmpdir(), 'tandem-branch-'));
    try {
      const clone = ['clone', '--quiet', `${app.codeHost!.url}/acme/webapp.git`, 'repo'];
      expect((await git(dir, clone, { auth })).exitCode).toBe(0);
      const push = ['push', '--quiet', 'origin', `HEAD:refs/heads/${name}`];
      expect((await git(join(dir, 'repo'), push, { auth })).exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const status = async (agentId: string) =>
    (await app.database.db.select({ status: agents.status }).from(agents).where(eq(agents.id, agentId)))[0]!
      .status;
  const systemOf = (request: unknown) =>
    ((request as ChatCompletionsRequest).messages[0] as { role: string; content: string }).content;

  /** The model messages and ledger rows stored for the agent (what a dropped answer must not add). */
  const storedFor = async (agentId: string) => ({
    spice: JSON.stringify(
      await app.database.db.select().from(spiceMessages).where(eq(spiceMessages.agentId, agentId)),
    ),
    charges: (
      await app.database.db.select().from(creditTransactions).where(eq(creditTransactions.agentId, agentId))
    ).length,
  });
  const hasToolResult = (request: ChatCompletionsRequest) =>
    request.messages.some((m) => (m as { role: string }).role === 'tool');

  it('asks the model before the clone is ready, with the prompt the clone gives; a tool waits for it', async () => {
    mode = 'real';
    hold();
    const before = llm.requests.length;
    // tandem-1 is someone else's. The first request goes out before the branch check and names
    // the agent's first free name as its guess; the check finds it taken, and that answer is dropped.
    answer = (request) =>
      systemOf(request).includes('on the branch tandem-1,')
        ? { content: 'An answer to a wrong guess.' }
        : hasToolResult(request)
          ? {
              content: 'Done.',
              tool_calls: [{ name: 'task_complete', arguments: { summary: 'Read them.' } }],
            }
          : {
              content: 'Reading the instructions.',
              tool_calls: [{ name: 'run_command', arguments: { command: 'cat .tandem/README.md' } }],
            };
    const { taken } = prefetchStats();
    const agentId = await create('Read the instructions');

    await until('the model asked again', async () => (llm.requests.length > before + 1 ? true : undefined));
    expect(prepared).toBe(0);
    // The instructions came from the read the creation started, not one the run made after opening.
    expect(prefetchStats().taken).toBe(taken + 1);
    expect(systemOf(llm.requests[before])).toContain(
      'Your checkout is on the branch tandem-1, made from main.',
    );
    const first = systemOf(llm.requests[before + 1]);
    // The branch the clone will take, and main's instructions.
    expect(first).toContain('Your checkout is on the branch tandem-1-2, made from main.');
    expect(first).toContain(`<repository-instructions>\n${INSTRUCTIONS}\n</repository-instructions>`);

    // The model's command waits for the sandbox: nothing runs while the preparation is held.
    await until('the model answer stored', async () =>
      (await feed(agentId)).some(
        (i) => i.item_type === 'message' && /Reading the instructions/.test(JSON.stringify(i)),
      )
        ? true
        : undefined,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect((await feed(agentId)).some((i) => i.item_type === 'shell_message')).toBe(false);
    expect(await status(agentId)).toBe('open');

    release();
    await runner().idle(agentId);
    expect(prepared).toBe(1);
    const items = await feed(agentId);
    expect(JSON.stringify(items.filter((i) => i.item_type === 'shell_message'))).toContain(INSTRUCTIONS);
    // The second call's branches come from the workspace: the same prompt, word for word.
    expect(llm.requests.length).toBe(before + 3);
    expect(systemOf(llm.requests[before + 2])).toBe(first);
    const [row] = await app.database.db.select().from(agents).where(eq(agents.id, agentId));
    expect(row!.branch).toBe('tandem-1-2');
    // The wrong guess's answer is nowhere: not in the feed, the model's context or the ledger.
    expect(JSON.stringify(items)).not.toContain('wrong guess');
    const stored = await storedFor(agentId);
    expect(stored.spice).not.toContain('wrong guess');
    expect(stored.charges).toBe(2);
  });

  it('ends a run that needed no tool without waiting, and keeps the sandbox warm for the next', async () => {
    mode = 'real';
    hold();
    const before = llm.requests.length;
    answer = () => ({ content: 'Hello there.' });
    const agentId = await create('Just say hello');
    await until('the run ended', async () => ((await status(agentId)) === 'paused' ? true : undefined));
    expect(llm.requests.length).toBe(before + 1);
    const preparedBefore = prepared;
    expect(preparedBefore).toBe(1);

    release();
    // idle() also waits for the sandbox its run left being prepared.
    await runner().idle(agentId);
    expect(prepared).toBe(preparedBefore + 1);

    // The next message finds it warm: no second preparation.
    answer = () => ({ content: 'Hello again.' });
    await send(agentId, 'Once more');
    await runner().idle(agentId);
    expect(llm.requests.length).toBe(before + 2);
    expect(prepared).toBe(preparedBefore + 1);
    expect(systemOf(llm.requests[before + 1])).toBe(systemOf(llm.requests[before]));
  });

  it('reads a linked instructions file as none, as the checkout does', async () => {
    mode = 'real';
    hold();
    const before = llm.requests.length;
    answer = (_request, index) =>
      index === before
        ? { tool_calls: [{ name: 'run_command', arguments: { command: 'true' } }] }
        : { content: 'Done.' };
    const agentId = await create('Work on the linked branch', 'links');
    await until('the first model request', async () => (llm.requests.length > before ? true : undefined));
    const first = systemOf(llm.requests[before]);
    expect(first).toContain('made from links.');
    expect(first).not.toContain('<repository-instructions>');
    release();
    await runner().idle(agentId);
    expect(llm.requests.length).toBe(before + 2);
    expect(systemOf(llm.requests[before + 1])).toBe(first);
  });

  it('reports a failed preparation as the agent error when a tool needs the sandbox', async () => {
    mode = 'fail';
    hold();
    const before = llm.requests.length;
    answer = () => ({
      content: 'Listing.',
      tool_calls: [{ name: 'run_command', arguments: { command: 'ls' } }],
    });
    const agentId = await create('List the files');
    await until('the first model request', async () => (llm.requests.length > before ? true : undefined));
    release();
    await runner().idle(agentId);
    const errors = (await feed(agentId)).filter((i) => i.action_type === 'ErrorEvent');
    expect(JSON.stringify(errors)).toContain('cloning failed: the code host went away');
    expect(await status(agentId)).toBe('paused');
    // One model call: the run stopped at the tool instead of answering it.
    expect(llm.requests.length).toBe(before + 1);
    expect((await feed(agentId)).some((i) => i.item_type === 'shell_message')).toBe(false);
  });

  it("waits for another worker process's preparation of the agent's workspace", async () => {
    mode = 'real';
    release();
    // Another worker on this machine, still preparing this agent's clone: it holds the lock.
    const otherWorker = spawn('sleep', ['60'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => otherWorker.once('exit', resolve));
    foreignHolder = otherWorker.pid!;
    const preparedBefore = prepared;
    runOneCommand('echo ran-after-the-other-worker');
    const agentId = await create('Run one command');
    await until('the other worker holds the lock', async () => (plantedLock ? true : undefined));
    await new Promise((r) => setTimeout(r, 400));
    // Nothing is cloned into its workspace meanwhile, and the command waits.
    expect(existsSync(join(dirname(dirname(plantedLock!)), agentId))).toBe(false);
    expect((await feed(agentId)).some((i) => i.item_type === 'shell_message')).toBe(false);
    expect(prepared).toBe(preparedBefore);

    // It goes away (its preparation done, or the process died): this one prepares and runs.
    otherWorker.kill();
    await exited;
    await runner().idle(agentId);
    expect(prepared).toBe(preparedBefore + 1);
    expect(JSON.stringify(await feed(agentId))).toContain('ran-after-the-other-worker');
    expect(existsSync(plantedLock!)).toBe(false);
    plantedLock = undefined;
  });

  it('holds a preparation back for a quiet server until a tool or the next run needs it', async () => {
    mode = 'real';
    release();
    // A server that is never quiet: only a run that needs the sandbox lets its preparation start.
    const busy = vi.spyOn(backgroundQuiet, 'wait').mockImplementation(async (hurry) => {
      await hurry;
    });
    try {
      const preparedBefore = prepared;
      const before = llm.requests.length;
      answer = () => ({ content: 'Hello there.' });
      const agentId = await create('Just say hello');
      await until('the run ended', async () => ((await status(agentId)) === 'paused' ? true : undefined));
      await new Promise((r) => setTimeout(r, 300));
      expect(llm.requests.length).toBe(before + 1);
      expect(prepared).toBe(preparedBefore);

      // The next run takes the sandbox the first left being prepared: it starts at once.
      runOneCommand('echo next-run');
      await send(agentId, 'Run it');
      await runner().idle(agentId);
      expect(prepared).toBe(preparedBefore + 1);
      const shells = (await feed(agentId)).filter((i) => i.item_type === 'shell_message');
      expect(JSON.stringify(shells)).toContain('next-run');

      // A fresh agent whose first answer needs a tool: the tool starts its own preparation.
      runOneCommand('echo first-tool');
      const second = await create('Run a command');
      await runner().idle(second);
      expect(prepared).toBe(preparedBefore + 2);
      expect(JSON.stringify(await feed(second))).toContain('first-tool');
    } finally {
      busy.mockRestore();
    }
  });

  it('lets a tool have its sandbox while every turn is wanted by preparations held for quiet', async () => {
    mode = 'real';
    release();
    // Held preparations take no turn: with as many waiting for a quiet server as there are turns,
    // a fresh agent whose first answer needs a tool still gets its clone made.
    let quiet!: () => void;
    const quietened = new Promise<void>((resolve) => (quiet = resolve));
    const busy = vi.spyOn(backgroundQuiet, 'wait').mockImplementation(async (hurry) => {
      await Promise.race([hurry, quietened]);
    });
    const agentIds: string[] = [];
    try {
      answer = () => ({ content: 'Hello there.' });
      for (let i = 0; i < backgroundPrepares.limit; i++) agentIds.push(await create(`Just say hello (${i})`));
      for (const agentId of agentIds) {
        await until('the run ended', async () => ((await status(agentId)) === 'paused' ? true : undefined));
      }
      await until('every preparation is held', async () =>
        busy.mock.calls.length >= backgroundPrepares.limit ? true : undefined,
      );

      runOneCommand('echo past-the-held');
      const withTool = await create('Run a command');
      agentIds.push(withTool);
      await until(
        'the tool ran',
        async () => (JSON.stringify(await feed(withTool)).includes('past-the-held') ? true : undefined),
        { timeoutMs: 20_000 },
      );
    } finally {
      quiet();
      busy.mockRestore();
      for (const agentId of agentIds) await runner().idle(agentId);
    }
  });

  it('aborts a guessed request as soon as the check finds the branch taken, and guesses no more there', async () => {
    mode = 'real';
    release();
    forgetTakenBranches();
    // The next agent's name, taken on the code host before it is created.
    const [repo] = await app.database.db
      .select({ last: repositories.lastAgentNumber })
      .from(repositories)
      .where(eq(repositories.fullName, 'acme/webapp'));
    const guessed = `tandem-${repo!.last + 1}`;
    await pushBranch(guessed);
    const before = llm.requests.length;
    // An answer to the guess would take until the test ends; the others come at once.
    let wake!: () => void;
    const late = new Promise<void>((resolve) => (wake = resolve));
    answer = async (request) => {
      if (systemOf(request).includes(`on the branch ${guessed},`)) await late;
      return { content: 'Hello there.' };
    };
    const started = Date.now();
    const agentId = await create('Just say hello');
    await runner().idle(agentId);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(llm.requests.length).toBe(before + 2);
    expect(systemOf(llm.requests[before + 1])).toContain(`on the branch ${guessed}-2,`);
    expect((await storedFor(agentId)).charges).toBe(1);
    wake();

    // The repository had a collision: the next agent there asks first, and its one request is right.
    const next = `tandem-${repo!.last + 2}`;
    await pushBranch(next);
    const again = llm.requests.length;
    answer = () => ({ content: 'Hello again.' });
    const second = await create('Just say hello again');
    await runner().idle(second);
    expect(llm.requests.length).toBe(again + 1);
    expect(systemOf(llm.requests[again])).toContain(`on the branch ${next}-2,`);
  });
});
