import { z } from 'zod';
import {
  MAX_SCRIPT_CONTENTS_CHARS,
  readRepoScript,
  ShellSession,
  type StreamScrubber,
} from '../../sandbox/index.js';
import { shellItemData } from '../ports.js';
import { recordScriptLog } from '../script-logs.js';
import { defineTool, ToolInputError, type ToolContext } from './types.js';

const MAX_OUTPUT_TO_MODEL = 30_000;

/** Each shell's output scrubber; it goes with its session. */
const outputStreams = new WeakMap<ShellSession, StreamScrubber>();
/** Everything a repository script's shell showed (scrubbed), for its log once it exits. */
const scriptOutputs = new WeakMap<ShellSession, { text: string }>();
/** A script log keeps the newest output up to this size, as the setup and format logs do. */
const MAX_SCRIPT_LOG_CHARS = 1024 * 1024;

function forModel(text: string): string {
  if (text.length <= MAX_OUTPUT_TO_MODEL) return text;
  const half = MAX_OUTPUT_TO_MODEL / 2;
  return `${text.slice(0, half)}\n… ${text.length - MAX_OUTPUT_TO_MODEL} characters omitted …\n${text.slice(-half)}`;
}

async function shellMessage(
  ctx: ToolContext,
  pid: number,
  actionUuid: string,
  type: string,
  message: string,
) {
  if (!message) return;
  await ctx.emit({
    itemType: 'shell_message',
    pid,
    actionUuid,
    data: { message_type: type, message: ctx.scrub(message) },
  });
}

/** Starts a shell in the workspace, with a feed item that follows it until it exits. */
async function startShell(ctx: ToolContext, command: string, scriptPath: string | null = null) {
  const session = ShellSession.start({
    command,
    cwd: ctx.workspace.dir,
    workspace: ctx.workspace.dir,
    env: ctx.env,
    network: ctx.network,
    agentNetwork: ctx.agentNetwork ?? null,
    kind: ctx.sandboxKind,
  });
  const shown = { command: ctx.scrub(command), scriptPath };
  const { actionUuid } = await ctx.emit({
    itemType: 'shell',
    pid: session.pid,
    data: shellItemData(shown, []),
  });
  await shellMessage(ctx, session.pid, actionUuid, 'stdin', command);
  ctx.session.shells.set(session.pid, { session, actionUuid, command });
  const shell = { ...shown, actionUuid, pid: session.pid };
  session.onEvent((event) => {
    if (event.type === 'ports') void ctx.trackPorts(shell, event.ports);
  });
  return { session, actionUuid };
}

async function finishIfExited(ctx: ToolContext, pid: number): Promise<string> {
  const entry = ctx.session.shells.get(pid);
  if (!entry || entry.session.running) return '';
  ctx.session.shells.delete(pid);
  const tail = await showOutput(ctx, entry.session, entry.actionUuid, entry.session.readOutput());
  await shellMessage(
    ctx,
    pid,
    entry.actionUuid,
    'shutdown',
    `Process exited with code ${entry.session.exitCode}`,
  );
  return `${tail}\n[process ${pid} exited with code ${entry.session.exitCode}]`;
}

/**
 * A shell's output, scrubbed as one stream: a secret printed in pieces (across reads, feed items
 * and tool results) is masked wherever the pieces are joined. Returns what was shown (feed and model).
 */
async function showOutput(ctx: ToolContext, session: ShellSession, actionUuid: string, raw: string) {
  let stream = outputStreams.get(session);
  if (!stream) outputStreams.set(session, (stream = ctx.scrub.stream()));
  // Once the shell has exited its output is complete: nothing is held back any more.
  const shown = stream.write(raw) + (session.running ? '' : stream.end());
  const log = scriptOutputs.get(session);
  if (log && shown) log.text = (log.text + shown).slice(-MAX_SCRIPT_LOG_CHARS);
  if (shown) {
    // Already scrubbed: a piece scrubbed again alone could differ at its edges from the stream.
    await ctx.emit({
      itemType: 'shell_message',
      pid: session.pid,
      actionUuid,
      data: { message_type: 'stdout', message: shown },
    });
  }
  return shown;
}

async function collect(ctx: ToolContext, pid: number, options: { idleMs: number; maxMs: number }) {
  const entry = ctx.session.shells.get(pid)!;
  const output = await entry.session.waitForOutput(options);
  return showOutput(ctx, entry.session, entry.actionUuid, output);
}

export const runCommand = defineTool({
  name: 'run_command',
  description:
    'Run a bash command in the repository. By default waits until it exits (up to timeout_seconds, then it is stopped). With background: true it keeps running (servers, watchers): use shell_input and shell_stop with the returned pid.',
  input: z.object({
    command: z.string().min(1),
    timeout_seconds: z.number().int().positive().max(1800).default(300),
    background: z.boolean().default(false),
  }),
  async execute(input, ctx) {
    const { session } = await startShell(ctx, input.command);
    if (input.background) {
      const output = await collect(ctx, session.pid, { idleMs: 1000, maxMs: 5000 });
      const exited = await finishIfExited(ctx, session.pid);
      return { output: `Started in the background with pid ${session.pid}.\n${forModel(output)}${exited}` };
    }
    const deadline = Date.now() + input.timeout_seconds * 1000;
    let output = '';
    while (session.running && Date.now() < deadline && !ctx.session.signal.aborted) {
      output += await collect(ctx, session.pid, {
        idleMs: 2000,
        maxMs: Math.min(30_000, deadline - Date.now()),
      });
    }
    let note = '';
    if (session.running) {
      await session.stop();
      note = ctx.session.signal.aborted
        ? '\n[stopped: the run was interrupted]'
        : `\n[stopped after ${input.timeout_seconds} s]`;
    }
    output += await collect(ctx, session.pid, { idleMs: 0, maxMs: 0 });
    const exited = await finishIfExited(ctx, session.pid);
    return { output: `${forModel(output)}${note}${exited}` };
  },
});

export const shellInput = defineTool({
  name: 'shell_input',
  description:
    'Write to the stdin of a background process started with run_command, then read its new output.',
  input: z.object({ pid: z.number().int(), input: z.string() }),
  async execute(input, ctx) {
    const entry = ctx.session.shells.get(input.pid);
    if (!entry) throw new ToolInputError(`No running process with pid ${input.pid}`);
    entry.session.write(input.input);
    await shellMessage(ctx, input.pid, entry.actionUuid, 'stdin', input.input);
    const output = await collect(ctx, input.pid, { idleMs: 500, maxMs: 10_000 });
    return { output: forModel(output) + (await finishIfExited(ctx, input.pid)) };
  },
});

export const shellStop = defineTool({
  name: 'shell_stop',
  description: 'Stop a background process started with run_command.',
  input: z.object({ pid: z.number().int() }),
  async execute(input, ctx) {
    const entry = ctx.session.shells.get(input.pid);
    if (!entry) throw new ToolInputError(`No running process with pid ${input.pid}`);
    await entry.session.stop();
    const output = await collect(ctx, input.pid, { idleMs: 0, maxMs: 0 });
    return { output: forModel(output) + (await finishIfExited(ctx, input.pid)) };
  },
});

/**
 * Starts one of the repository's scripts (`.tandem/run/…`, `.tandem/preview/…`) for the user: it
 * runs in the background and its output streams into the feed until it exits. Already running and
 * not `restart`: left alone.
 */
export async function startRepoScript(
  ctx: ToolContext,
  scriptPath: string,
  restart: boolean,
): Promise<string> {
  const command = `bash ${scriptPath}`;
  const running = [...ctx.session.shells.entries()].find(
    ([, s]) => s.command === command && s.session.running,
  );
  if (running && !restart) return `${scriptPath} is already running (pid ${running[0]})`;
  if (running) {
    await running[1].session.stop();
    await finishIfExited(ctx, running[0]);
  }
  // Read before it runs: what the log shows is the script that ran, not what it left behind.
  const contents = ((await readRepoScript(ctx.workspace.dir, scriptPath)) ?? '').slice(
    0,
    MAX_SCRIPT_CONTENTS_CHARS,
  );
  const startedAt = new Date();
  const { session, actionUuid } = await startShell(ctx, command, scriptPath);
  scriptOutputs.set(session, { text: '' });
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    timer = undefined;
    await showOutput(ctx, session, actionUuid, session.readOutput());
  };
  session.onEvent((event) => {
    if (event.type === 'stdout') timer ??= setTimeout(() => void flush(), 300);
    if (event.type === 'exit') {
      clearTimeout(timer);
      void flush()
        .then(() => finishIfExited(ctx, session.pid))
        .then(() =>
          recordScriptLog(
            ctx.db,
            { repositoryId: ctx.repo.id, agentId: ctx.agent.id },
            {
              path: scriptPath,
              exists: true,
              // Stopped by a signal (a restart, the sandbox shutting down): no exit code, not a success.
              statusCode: event.exitCode ?? -1,
              output: scriptOutputs.get(session)?.text ?? '',
              durationMs: Date.now() - startedAt.getTime(),
              startedAt: startedAt.toISOString(),
              contents,
            },
            ctx.scrub,
          ),
        )
        // The run may be long over; a log that cannot be stored must not take the process down.
        .catch(() => undefined);
    }
  });
  return `Started ${scriptPath} (pid ${session.pid})`;
}
