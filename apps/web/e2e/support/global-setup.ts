import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startTandemServer, testServerEnv, type RunningServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The port the 'serve a preview' agent's app listens on. */
    previewPort: number;
  }
}

/** The agent's app in the preview test: two pages, so going back has somewhere to go. */
const previewApp = (port: number) => `const http = require("http");
http.createServer((q, r) => {
  r.setHeader("content-type", "text/html");
  r.end(q.url === "/second"
    ? "<html><head><title>Second</title></head><body><h1>The second page</h1></body></html>"
    : "<html><head><title>Agent app</title></head><body style=\\"background:#cce4ff\\"><h1>Hello from the agent app</h1><a href=\\"/second\\">Second page</a></body></html>");
}).listen(${port});`;

/** Any agent on the scripted model reads the README, then completes; later messages get "Done.". */
const e2eScript = (previewPort: number) => ({
  scripts: [
    {
      // The preview test: a server in the background. The delay lets the page load first, so the
      // port is new to it and its preview tab opens by itself.
      match: 'serve a preview',
      steps: [
        {
          delay_ms: 4000,
          tool_calls: [
            {
              name: 'run_command',
              args: { command: `node -e '${previewApp(previewPort)}'`, background: true },
            },
          ],
        },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Serving the app.' } }] },
      ],
    },
    // The list tests' agents (agents-manager.e2e.ts): answered at once, without a sandbox. On the
    // demo model each ran its whole plan (tests, push, pull request), and a dozen of them queued
    // up ahead of the next file's agents.
    { match: 'List filler|An agent to archive|Archive me from the list', steps: [{ text: 'Listed.' }] },
    // Slow enough for the header's 3 s status poll to see the agent running.
    { match: 'take your time', steps: [{ delay_ms: 7000, text: 'Thought it over.' }] },
    {
      // The diff window's test: a commit with a format script (whose log opens) and a Run Scripts entry.
      match: 'add subtract',
      steps: [
        { tool_calls: [{ name: 'view_files', args: { files: [{ path: 'src/math.js' }] } }] },
        {
          tool_calls: [
            {
              name: 'edit_file',
              args: {
                path: 'src/math.js',
                old_string: 'export function multiply(a, b) {',
                new_string:
                  'export function subtract(a, b) {\n  return a - b;\n}\n\nexport function multiply(a, b) {',
              },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: 'run_command',
              args: {
                command:
                  'mkdir -p .tandem/run && printf "echo hello from a script\\n" > .tandem/run/hello.sh && printf "echo formatted\\n" > .tandem/format.sh',
              },
            },
          ],
        },
        { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Added subtract.' } }] },
      ],
    },
    {
      // The 402 test: one call whose price ($1 per million input tokens, +19.5 %) exceeds the
      // installation's 3000 free credits. Only ada's own installation runs it.
      match: 'spend every credit',
      steps: [
        {
          text: 'Spending.',
          tool_calls: [{ name: 'git_grep', args: { pattern: 'Ada' } }],
          usage: { input: 40_000_000, cached: 0, output: 10, reasoning: 0 },
        },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'never reached' } }] },
      ],
    },
    {
      // The feed paging test: more than two pages of items (CONVERSATION_PAGE_SIZE is 50), many of
      // them inside one millisecond, so paging back by `before=` must keep microseconds.
      match: 'long conversation',
      steps: [
        {
          text: 'Starting the long tour.',
          tool_calls: Array.from({ length: 130 }, () => ({
            name: 'view_files',
            args: { files: [{ path: 'README.md' }] },
          })),
        },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Toured the README.' } }] },
      ],
    },
    {
      // The feed-following test: rows of long text, which wrap into more lines when the feed
      // narrows, so the newest row moves down out of view unless the feed follows it.
      match: 'narrowing feed',
      steps: [
        ...Array.from({ length: 12 }, (_, i) => ({
          text: `Paragraph ${i + 1}. ${'A sentence long enough to wrap across the feed when it narrows. '.repeat(6)}`,
          tool_calls: [{ name: 'view_files', args: { files: [{ path: 'README.md' }] } }],
        })),
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Followed to the very end.' } }] },
      ],
    },
    {
      // The repository Logs test: a commit whose format script leaves a log in acme/api.
      match: 'leave a format log',
      steps: [
        {
          tool_calls: [
            {
              name: 'run_command',
              args: {
                command: 'mkdir -p .tandem && printf "echo formatting the api\\n" > .tandem/format.sh',
              },
            },
          ],
        },
        { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add a format script' } }] },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Added a format script.' } }] },
      ],
    },
    {
      // The repository budget test: one call priced at ~12¢ ($1 per million input tokens, +19.5 %),
      // over the 10¢ minimum budget, so the agent stops with the over-budget notice.
      match: 'go over the budget',
      steps: [
        {
          text: 'Spending a little.',
          tool_calls: [{ name: 'git_grep', args: { pattern: 'api' } }],
          usage: { input: 100_000, cached: 0, output: 10, reasoning: 0 },
        },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'never reached' } }] },
      ],
    },
    {
      // The CI test: a wrong subtract with a slow test (so the feed sees the run in progress: its
      // first events come before the commit is recorded, and are applied on the queue's first
      // retry, 10 s later),
      // then, woken by auto-fix with the failing log, the fix.
      match: 'ci round trip',
      steps: [
        {
          tool_calls: [
            {
              name: 'edit_file',
              args: {
                path: 'src/math.js',
                old_string: 'export function multiply(a, b) {',
                new_string:
                  'export function minus(a, b) {\n  return a + b;\n}\n\nexport function multiply(a, b) {',
              },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: 'edit_file',
              args: {
                path: 'test/minus.test.js',
                old_string: '',
                new_string:
                  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { minus } from '../src/math.js';\n\ntest('minus takes away', async () => {\n  await new Promise((r) => setTimeout(r, 20000));\n  assert.equal(minus(5, 3), 2);\n});\n",
              },
            },
          ],
        },
        { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add minus' } }] },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Added minus.' } }] },
        {
          tool_calls: [
            {
              name: 'edit_file',
              args: {
                path: 'src/math.js',
                old_string: 'export function minus(a, b) {\n  return a + b;',
                new_string: 'export function minus(a, b) {\n  return a - b;',
              },
            },
          ],
        },
        { tool_calls: [{ name: 'commit_and_push', args: { message: 'Fix minus' } }] },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Fixed minus; CI passes.' } }] },
      ],
    },
    // supervisor.e2e.ts: a supervisor starts one sub-agent in each of acme's repositories; each opens
    // a pull request and reports back; the supervisor waits for both reports, then finishes.
    {
      match: 'e2e supervise: two repositories',
      steps: [
        {
          tool_calls: [
            {
              name: 'start_sub_agent',
              args: { repository: 'acme/webapp', task: 'e2e sub-agent webapp: write docs/webapp-notes.md' },
            },
            {
              name: 'start_sub_agent',
              args: { repository: 'acme/api', task: 'e2e sub-agent api: write docs/api-notes.md' },
            },
          ],
        },
        // Woken by each report (or both at once: a wait with nobody working returns at once).
        { tool_calls: [{ name: 'wait_for_sub_agents', args: {} }] },
        { tool_calls: [{ name: 'wait_for_sub_agents', args: {} }] },
        { tool_calls: [{ name: 'wait_for_sub_agents', args: {} }] },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Both sub-agents reported back.' } }] },
      ],
    },
    ...(['webapp', 'api'] as const).map((repo) => ({
      match: `e2e sub-agent ${repo}:`,
      steps: [
        {
          tool_calls: [
            {
              name: 'edit_file',
              args: { path: `docs/${repo}-notes.md`, old_string: '', new_string: `# ${repo} notes\n` },
            },
          ],
        },
        { tool_calls: [{ name: 'commit_and_push', args: { message: `Add ${repo} notes` } }] },
        { tool_calls: [{ name: 'open_pull_request', args: { title: `Add ${repo} notes` } }] },
        {
          tool_calls: [
            { name: 'task_complete', args: { summary: `Opened the ${repo} notes pull request.` } },
          ],
        },
      ],
    })),
    {
      // The admin task monitor test: one model call slow enough to be stopped, restarted and failed.
      match: 'admin monitor check',
      steps: [{ delay_ms: 120_000, text: 'Thought it over.' }],
    },
    {
      // The admin dashboard's test: one call of a known price ($1 per million input tokens, +19.5 %:
      // 239 credits), so the credits spent figure moves by exactly that much.
      match: 'count on the dashboard',
      steps: [
        {
          text: 'Counted.',
          tool_calls: [{ name: 'task_complete', args: { summary: 'Counted for the dashboard.' } }],
          usage: { input: 2_000_000, cached: 0, output: 0, reasoning: 0 },
        },
      ],
    },
    {
      match: 'run a command',
      steps: [
        { tool_calls: [{ name: 'run_command', args: { command: 'echo from-the-shell' } }] },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Ran it.' } }] },
      ],
    },
    {
      // The party agent (party.e2e.ts): its opening message, then the first visitor's message.
      match: 'You are the party agent',
      steps: [{ text: 'Welcome to the party!' }, { text: 'Hello, party guest!' }],
    },
    {
      steps: [
        {
          text: 'I will read the README first.',
          tool_calls: [{ name: 'view_files', args: { files: [{ path: 'README.md' }] } }],
        },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Read the README.' } }] },
      ],
    },
  ],
});

/** Starts the built server on a free port with a throwaway data dir; stops it after the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-e2e-'));
  // The 'Scripted (tests)' model: agents in browser tests run the real loop without an LLM.
  const scriptFile = join(dataDir, 'scripted-model.json');
  const previewPort = await freePort();
  writeFileSync(scriptFile, JSON.stringify(e2eScript(previewPort)));
  const env = {
    ...(await testServerEnv({ port, dataDir, scriptFile })),
    // The party agent on a seeded repository of the acme installation, on the scripted model,
    // with a per-visitor cap low enough for party.e2e.ts to reach.
    TANDEM_PARTY_REPO: 'acme/api',
    TANDEM_PARTY_MODEL: 'scripted',
    TANDEM_PARTY_MESSAGES_PER_MINUTE: '3',
    TANDEM_PARTY_IP_MESSAGES_PER_MINUTE: '60',
    TANDEM_PARTY_DAILY_CREDITS: '500',
    TANDEM_PARTY_MAX_MESSAGE_CHARS: '4000',
  };
  let server: RunningServer;
  try {
    server = await startTandemServer(env);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('baseUrl', server.url);
  project.provide('previewPort', previewPort);
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
