import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createAgentResponseSchema } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADD_SUBTRACT_EDIT, tempDir, until, writeScriptFile } from '../testing/agent-harness.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';
import { CLI_MAIN, listen } from './cli-harness.js';

/**
 * `tandem view --follow` on a real terminal (tmux): it renders the conversation with colours while
 * the agent works and exits by itself once the agent stops.
 */

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const TITLE = hasTmux
  ? 'view --follow renders in a terminal and exits when the agent finishes'
  : 'view --follow in a terminal — SKIPPED: tmux is not installed';
if (!hasTmux) console.warn(`cli-terminal.test.ts: ${TITLE}`);

const scriptFile = writeScriptFile([
  {
    match: 'subtract',
    steps: [
      // The pause lets the terminal start following while the agent is still working.
      {
        delay_ms: 2000,
        text: 'Adding subtract.',
        tool_calls: [{ name: 'edit_file', args: ADD_SUBTRACT_EDIT }],
      },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Added subtract.' } }] },
    ],
  },
]);

const run = promisify(execFile);
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!hasTmux)('tandem view --follow in tmux', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  const home = tempDir('tandem-cli-tty-');
  // Our own tmux server on a socket in the test's directory (-S): the test never touches anyone's
  // sessions, and leaves no `tmux-<uid>` directory in the system's temp directory as -L did.
  const socket = join(home, 'tmux.sock');
  const tmux = (...args: string[]) => run('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  let app: TestApp;
  let ada: TestUser;
  let url: string;

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    url = await listen(app);
  });
  // Runs before `home` is removed (after-hooks run in reverse order), while the socket still exists.
  afterAll(async () => {
    await tmux('kill-server').catch(() => undefined);
  });

  it(
    TITLE,
    async () => {
      const res = await app.server.inject({
        method: 'POST',
        url: '/api/agents/create-agent/acme/webapp',
        headers: { authorization: `Bearer ${ada.token}` },
        payload: { body: 'Please add subtract', model: 'scripted' },
      });
      const { agent_id } = createAgentResponseSchema.parse(res.json());
      const command = [
        'env -u NO_COLOR -u FORCE_COLOR',
        `HOME=${quote(home)} XDG_CONFIG_HOME=${quote(`${home}/.config`)} TERM=xterm-256color`,
        `TANDEM_URL=${quote(url)} TANDEM_TOKEN=${quote(ada.token)}`,
        `${quote(process.execPath)} ${quote(CLI_MAIN)} view ${agent_id} --follow --interval 0.3;`,
        'echo TANDEM_EXIT=$?; sleep 120',
      ].join(' ');
      await tmux('new-session', '-d', '-s', 'follow', '-x', '160', '-y', '60', command);
      const screen = await until(
        'the CLI to exit',
        async () => {
          const { stdout } = await tmux('capture-pane', '-p', '-e', '-J', '-S', '-200', '-t', 'follow');
          return stdout.includes('TANDEM_EXIT=') ? stdout : undefined;
        },
        { timeoutMs: 45_000, intervalMs: 300 },
      );
      // eslint-disable-next-line no-control-regex
      const plain = screen.replace(/\u001b\[[0-9;]*m/g, '');
      expect(plain).toContain('TANDEM_EXIT=0');
      expect(plain).toContain('Please add subtract');
      expect(plain).toContain('+export function subtract(a, b) {');
      expect(plain).toMatch(/● Committed [0-9a-f]{7} to \S+: Add subtract/);
      expect(plain).toContain('✓ Added subtract.');
      expect(plain).toMatch(/— agent paused/);
      // Colours on a terminal: the diff's added line in green.
      expect(screen).toContain('\u001b[32m+export function subtract(a, b) {');
    },
    60_000,
  );
});
