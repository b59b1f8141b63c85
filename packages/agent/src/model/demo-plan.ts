import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { demoPartyStep, isPartyChat } from './demo-party.js';
import { parseDemoEdit, type DemoEdit } from './demo-request.js';
import { splitSpeaker, textOf } from './scripted-prompt.js';

/**
 * The offline demo model's fixed plan for one request: look at the repository, read its README,
 * make the edit the message asks for (or write a notes file), run the tests, commit and push, open
 * a pull request, report. Each step is chosen from the tool results since the user's latest
 * message, so the plan survives restarts like any conversation, and every decision is visible in
 * the feed. There is no language model anywhere: nothing leaves the machine.
 */
export interface DemoStep {
  text?: string;
  toolCalls: { name: string; args: Record<string, unknown> }[];
}

export const DEMO_NOTES_FILE = 'TANDEM_DEMO.md';
const DEMO_FOOTER =
  "Made by Tandem's offline demo model: no AI was involved, it follows a fixed plan so you can try the product end to end. Configure a model provider to have real agents do real work.";

interface Done {
  name: string;
  args: Record<string, unknown>;
  output: string;
}

const isError = (output: string): boolean => output.startsWith('Error:');

/** Messages the loop adds as 'user' that are not a person asking for something. */
const NOT_A_REQUEST = [/^Auto-review of your latest push/, /^Summary of the work so far/];

/** The latest request and the tool calls made (with their results) since it. */
export function readConversation(prompt: LanguageModelV3Prompt): { request: string; done: Done[] } {
  let request = '';
  let start = 0;
  prompt.forEach((message, i) => {
    if (message.role !== 'user') return;
    const text = textOf(message).trim();
    if (!text || NOT_A_REQUEST.some((re) => re.test(text))) return;
    request = splitSpeaker(text).body;
    start = i + 1;
  });
  const calls = new Map<string, Done>();
  const done: Done[] = [];
  for (const message of prompt.slice(start)) {
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type !== 'tool-call') continue;
        const args = (typeof part.input === 'string' ? safeJson(part.input) : part.input) as Record<
          string,
          unknown
        >;
        const entry = { name: part.toolName, args: args ?? {}, output: '' };
        calls.set(part.toolCallId, entry);
        done.push(entry);
      }
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const entry = calls.get(part.toolCallId);
        const output = part.output;
        if (entry) entry.output = output.type === 'text' || output.type === 'error-text' ? output.value : '';
      }
    }
  }
  return { request, done };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** File names in a `view_files` listing of the root (numbered lines, directories end in '/'). */
function listing(output: string): string[] {
  return [...output.matchAll(/^\s*\d+ {2}(.+)$/gm)].map((m) => m[1]!.trim());
}

/** How this repository runs its tests, from the files at its root. */
export function testCommand(files: readonly string[]): string | null {
  const has = (name: string) => files.includes(name);
  if (has('package.json')) return 'npm test';
  if (has('Makefile')) return 'make test';
  if (has('pyproject.toml') || has('setup.py') || has('pytest.ini')) return 'python3 -m pytest -q';
  if (has('Cargo.toml')) return 'cargo test';
  if (has('go.mod')) return 'go test ./...';
  return null;
}

function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function editCall(edit: DemoEdit): DemoStep['toolCalls'][number] {
  switch (edit.kind) {
    case 'create':
      return {
        name: 'edit_file',
        args: { path: edit.path, old_string: '', new_string: `${edit.content}\n` },
      };
    case 'replace':
      return { name: 'edit_file', args: { path: edit.path, old_string: edit.from, new_string: edit.to } };
    case 'append':
      // Appending needs the file's text; the step before viewed it.
      return { name: 'view_files', args: { files: [{ path: edit.path }] } };
  }
}

/** The text of a viewed file, from view_files' numbered output. */
function viewedText(output: string): string | null {
  if (!output.startsWith('=== ')) return null;
  const body = output.split('\n').slice(1);
  if (body.at(-1)?.startsWith('… ')) return null; // cut: too long to rewrite safely
  return body.map((line) => line.replace(/^\s*\d+ {2}/, '')).join('\n');
}

function notesFile(request: string, why: string): DemoStep['toolCalls'][number] {
  const content = [
    '# Tandem demo run',
    '',
    `Request: ${excerpt(request, 500)}`,
    '',
    why,
    '',
    DEMO_FOOTER,
    '',
  ].join('\n');
  return { name: 'edit_file', args: { path: DEMO_NOTES_FILE, old_string: '', new_string: content } };
}

/** What the demo model says and calls next. */
export function nextDemoStep(prompt: LanguageModelV3Prompt): DemoStep {
  if (isPartyChat(prompt)) return demoPartyStep(prompt);
  const { request, done } = readConversation(prompt);
  const last = (name: string) => done.filter((d) => d.name === name).at(-1);
  const root = done.find((d) => d.name === 'view_files' && isRootView(d));
  const edit = parseDemoEdit(request);

  if (!request) return { text: 'Send me a message and I will show what an agent does.', toolCalls: [] };
  if (!root) {
    const title = excerpt(request, 60);
    return {
      text: "I'm Tandem's offline demo model: no AI, a fixed plan that shows what an agent does. First, a look at the repository.",
      toolCalls: [
        ...(title.length >= 2 ? [{ name: 'set_title', args: { title: `Demo: ${title}` } }] : []),
        { name: 'view_files', args: { files: [{ path: '.' }] } },
      ],
    };
  }
  const files = listing(root.output);
  const readme = files.find((f) => /^readme(\.md)?$/i.test(f));
  if (readme && !done.some((d) => d.name === 'view_files' && viewsPath(d, readme))) {
    return {
      text: 'Reading the README.',
      toolCalls: [{ name: 'view_files', args: { files: [{ path: readme }] } }],
    };
  }

  const edits = done.filter((d) => d.name === 'edit_file');
  if (!edits.length) {
    if (!edit) {
      return {
        text: `I can only make edits of a few fixed forms (see the docs), so I will write what you asked into ${DEMO_NOTES_FILE}.`,
        toolCalls: [notesFile(request, 'The demo model could not read this request as an edit it knows.')],
      };
    }
    if (edit.kind === 'append') {
      const viewed = done.find((d) => d.name === 'view_files' && viewsPath(d, edit.path));
      if (!viewed) return { text: `Opening ${edit.path}.`, toolCalls: [editCall(edit)] };
      const before = viewedText(viewed.output);
      if (before === null) {
        return {
          text: `${edit.path} cannot be read, so I will create it.`,
          toolCalls: [
            { name: 'edit_file', args: { path: edit.path, old_string: '', new_string: `${edit.text}\n` } },
          ],
        };
      }
      const joined = before.endsWith('\n') || before === '' ? before : `${before}\n`;
      return {
        text: `Adding the line to ${edit.path}.`,
        toolCalls: [
          {
            name: 'edit_file',
            args: { path: edit.path, old_string: '', new_string: `${joined}${edit.text}\n` },
          },
        ],
      };
    }
    return { text: `Making the change in ${edit.path}.`, toolCalls: [editCall(edit)] };
  }
  const lastEdit = edits.at(-1)!;
  if (isError(lastEdit.output) && !edits.some((d) => d.args.path === DEMO_NOTES_FILE)) {
    return {
      text: `That edit did not apply (${excerpt(lastEdit.output, 200)}). I will record the request in ${DEMO_NOTES_FILE} instead.`,
      toolCalls: [notesFile(request, `The requested edit did not apply: ${excerpt(lastEdit.output, 300)}`)],
    };
  }

  const tests = testCommand(files);
  if (tests && !last('run_command')) {
    return {
      text: 'Running the tests.',
      toolCalls: [{ name: 'run_command', args: { command: tests, timeout_seconds: 300 } }],
    };
  }
  const commit = last('commit_and_push');
  if (!commit) {
    return {
      text: 'Committing and pushing.',
      toolCalls: [{ name: 'commit_and_push', args: { message: `Demo: ${excerpt(request, 60)}` } }],
    };
  }
  if (isError(commit.output)) return complete(`The push failed: ${excerpt(commit.output, 300)}`);
  const pull = last('open_pull_request');
  if (!pull) {
    const testLine = testResult(last('run_command')?.output, tests);
    return {
      text: 'Opening a pull request.',
      toolCalls: [
        {
          name: 'open_pull_request',
          args: {
            title: `Demo: ${excerpt(request, 60)}`,
            body: `${describe(edits)}\n\n${testLine}\n\n${DEMO_FOOTER}`,
          },
        },
      ],
    };
  }
  const testLine = testResult(last('run_command')?.output, tests);
  return complete(
    isError(pull.output)
      ? `Pushed, but the pull request failed: ${excerpt(pull.output, 300)}`
      : `${describe(edits)} ${testLine} ${pull.output}.`,
  );
}

function complete(summary: string): DemoStep {
  return { text: summary, toolCalls: [{ name: 'task_complete', args: { summary } }] };
}

function isRootView(d: Done): boolean {
  const files = d.args.files;
  return Array.isArray(files) && files.some((f: { path?: unknown }) => f.path === '.');
}

function viewsPath(d: Done, path: string): boolean {
  const files = d.args.files;
  return Array.isArray(files) && files.some((f: { path?: unknown }) => f.path === path);
}

function describe(edits: Done[]): string {
  const applied = edits.filter((d) => !isError(d.output)).map((d) => String(d.args.path));
  return applied.length ? `Changed ${[...new Set(applied)].join(', ')}.` : 'No file was changed.';
}

function testResult(output: string | undefined, command: string | null): string {
  if (!command) return 'The repository has no test command I know of.';
  const code = output?.match(/exited with code (-?\d+)\]?\s*$/)?.[1];
  if (code === '0') return `\`${command}\` passed.`;
  if (code !== undefined) return `\`${command}\` failed (exit code ${code}).`;
  return `\`${command}\` did not finish.`;
}
