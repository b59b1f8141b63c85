import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { PARTY_OPENING_PREFIX } from './demo-party.js';
import { DEMO_NOTES_FILE, nextDemoStep, testCommand, type DemoStep } from './demo-plan.js';

const README = '=== README.md (lines 1-3 of 3)\n    1  # webapp\n    2  \n    3  ';
const ROOT = '=== . (lines 1-4 of 4)\n    1  README.md\n    2  package.json\n    3  src/\n    4  test/';

/** Plays the plan against canned tool results, the way the loop would, and returns every step. */
function play(
  request: string,
  results: Record<string, (args: Record<string, unknown>) => string>,
): DemoStep[] {
  const prompt: LanguageModelV3Prompt = [
    { role: 'system', content: 'You are Tandem.' },
    { role: 'user', content: [{ type: 'text', text: `bob: ${request}` }] },
  ];
  const steps: DemoStep[] = [];
  for (let n = 0; n < 20; n += 1) {
    const step = nextDemoStep(prompt);
    steps.push(step);
    if (!step.toolCalls.length || step.toolCalls.some((c) => c.name === 'task_complete')) break;
    const ids = step.toolCalls.map((_, i) => `call_${n}_${i}`);
    prompt.push({
      role: 'assistant',
      content: step.toolCalls.map((call, i) => ({
        type: 'tool-call' as const,
        toolCallId: ids[i]!,
        toolName: call.name,
        input: JSON.stringify(call.args),
      })),
    });
    prompt.push({
      role: 'tool',
      content: step.toolCalls.map((call, i) => ({
        type: 'tool-result' as const,
        toolCallId: ids[i]!,
        toolName: call.name,
        output: { type: 'text' as const, value: (results[call.name] ?? (() => 'ok'))(call.args) },
      })),
    });
  }
  return steps;
}

const calls = (steps: DemoStep[]) => steps.flatMap((s) => s.toolCalls.map((c) => c.name));

const happy = {
  view_files: (args: Record<string, unknown>) =>
    (args.files as { path: string }[])[0]!.path === '.' ? ROOT : README,
  run_command: () => 'pass 3\n[process 12 exited with code 0]',
  commit_and_push: () => 'Committed abc1234 and pushed tandem-1',
  open_pull_request: () => 'Opened pull request #4: http://localhost:8081/acme/webapp/pull/4',
};

describe('the demo plan', () => {
  it('looks, reads the README, edits as asked, tests, pushes, opens a PR and reports', () => {
    const steps = play('Replace "Hello" with "Hi" in src/greet.js', happy);
    expect(calls(steps)).toEqual([
      'set_title',
      'view_files',
      'view_files',
      'edit_file',
      'run_command',
      'commit_and_push',
      'open_pull_request',
      'task_complete',
    ]);
    const edit = steps.flatMap((s) => s.toolCalls).find((c) => c.name === 'edit_file')!;
    expect(edit.args).toEqual({ path: 'src/greet.js', old_string: 'Hello', new_string: 'Hi' });
    expect(steps.flatMap((s) => s.toolCalls).find((c) => c.name === 'run_command')!.args.command).toBe(
      'npm test',
    );
    const pr = steps.flatMap((s) => s.toolCalls).find((c) => c.name === 'open_pull_request')!;
    expect(pr.args.body).toMatch(/Changed src\/greet\.js\.[\s\S]*`npm test` passed\.[\s\S]*no AI/);
    expect(steps.at(-1)!.toolCalls[0]!.args.summary).toMatch(/pull request #4/);
  });

  it('appends a line to the text the file had', () => {
    const steps = play('add "Run npm test." to README.md', happy);
    const edit = steps.flatMap((s) => s.toolCalls).find((c) => c.name === 'edit_file')!;
    expect(edit.args).toEqual({
      path: 'README.md',
      old_string: '',
      new_string: '# webapp\n\nRun npm test.\n',
    });
  });

  it('writes a notes file for a request it cannot read, and when an edit fails', () => {
    const notes = play('Add a subtract function', happy);
    expect(notes.flatMap((s) => s.toolCalls).find((c) => c.name === 'edit_file')!.args.path).toBe(
      DEMO_NOTES_FILE,
    );

    const failed = play('replace "nope" with "x" in src/math.js', {
      ...happy,
      edit_file: (args) => (args.path === DEMO_NOTES_FILE ? 'ok' : 'Error: old_string was not found'),
    });
    const edits = failed.flatMap((s) => s.toolCalls).filter((c) => c.name === 'edit_file');
    expect(edits.map((e) => e.args.path)).toEqual(['src/math.js', DEMO_NOTES_FILE]);
    expect(calls(failed).at(-1)).toBe('task_complete');
  });

  it('stops with the reason when the push fails', () => {
    const steps = play('Add a subtract function', {
      ...happy,
      commit_and_push: () => 'Error: push rejected',
    });
    expect(calls(steps)).not.toContain('open_pull_request');
    expect(steps.at(-1)!.toolCalls[0]).toMatchObject({ name: 'task_complete' });
    expect(steps.at(-1)!.text).toMatch(/push failed: Error: push rejected/);
  });

  it('starts over on the next message, ignoring auto-review notes', () => {
    const first = play('Add a subtract function', happy);
    expect(calls(first).at(-1)).toBe('task_complete');
    const prompt: LanguageModelV3Prompt = [
      { role: 'user', content: [{ type: 'text', text: 'first request' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      { role: 'user', content: [{ type: 'text', text: 'Auto-review of your latest push (abc): fix it' }] },
    ];
    // The auto-review note is not a request: the plan continues for "first request".
    expect(nextDemoStep(prompt).toolCalls.map((c) => c.name)).toEqual(['set_title', 'view_files']);
    expect(nextDemoStep(prompt).toolCalls[0]!.args.title).toBe('Demo: first request');
  });

  it('knows the usual test commands', () => {
    expect(testCommand(['package.json'])).toBe('npm test');
    expect(testCommand(['pyproject.toml'])).toBe('python3 -m pytest -q');
    expect(testCommand(['go.mod'])).toBe('go test ./...');
    expect(testCommand(['README.md'])).toBeNull();
  });
});

describe('the demo model in a party chat', () => {
  const opening = `${PARTY_OPENING_PREFIX} a public chat on acme/api that anyone on the internet may join.`;

  it('titles the chat, greets, and answers visitors without touching the repository', () => {
    const prompt: LanguageModelV3Prompt = [
      { role: 'system', content: 'You are Tandem.' },
      { role: 'user', content: [{ type: 'text', text: `ada: ${opening}` }] },
    ];
    const first = nextDemoStep(prompt);
    expect(first.toolCalls).toEqual([{ name: 'set_title', args: { title: 'Party chat' } }]);
    prompt.push(
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 't1', toolName: 'set_title', input: '{"title":"Party chat"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 't1',
            toolName: 'set_title',
            output: { type: 'text', value: 'ok' },
          },
        ],
      },
    );
    const hello = nextDemoStep(prompt);
    expect(hello.toolCalls).toEqual([]);
    expect(hello.text).toMatch(/^Hello/);

    prompt.push(
      { role: 'assistant', content: [{ type: 'text', text: hello.text! }] },
      // A visitor asking for exactly the edit the demo plan would otherwise make and push.
      {
        role: 'user',
        content: [{ type: 'text', text: 'anon-1a2b3c: replace "webapp" with "pwned" in README.md' }],
      },
    );
    const answer = nextDemoStep(prompt);
    expect(answer.toolCalls).toEqual([]);
    expect(answer.text).toContain('Thanks, anon-1a2b3c!');
    expect(answer.text).toContain('offline demo model');
  });

  it('keeps the usual plan for a conversation that only mentions the party agent later', () => {
    const steps = play(`tell everyone: ${opening}`, { view_files: () => ROOT });
    expect(steps[0]!.toolCalls.map((c) => c.name)).toContain('view_files');
  });
});
