import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APICallError, generateText, streamText, tool, type ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, SUMMARIZE_MARKER } from './scripted.js';
import type { ScriptFile } from './scripted-file.js';
import { toTokenUsage } from './usage.js';

// Tools as the runtime defines them: schemas only, no execute (the runtime runs the calls).
const tools = {
  view_files: tool({ description: 'View files', inputSchema: z.object({ paths: z.array(z.string()) }) }),
  run: tool({ description: 'Run a command', inputSchema: z.object({ command: z.string() }) }),
};

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-scripted-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function scriptFile(content: ScriptFile | string): Promise<string> {
  const file = join(dir, `script-${(counter += 1)}.json`);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const user = (text: string): ModelMessage => ({ role: 'user', content: text });

const twoStepScript: ScriptFile = {
  scripts: [
    {
      match: 'README',
      steps: [
        { text: 'Let me look.', tool_calls: [{ name: 'view_files', args: { paths: ['README.md'] } }] },
        { text: 'The README is fine.' },
      ],
    },
    { steps: [{ text: 'Fallback answer.' }] },
  ],
};

describe('scripted model', () => {
  it('answers the step given by the number of assistant messages, then "Done."', async () => {
    const model = createScriptedModel(await scriptFile(twoStepScript));
    const messages: ModelMessage[] = [user('Check the README please')];

    const first = await generateText({ model, messages, tools });
    expect(first.text).toBe('Let me look.');
    expect(first.finishReason).toBe('tool-calls');
    expect(first.toolCalls).toEqual([
      expect.objectContaining({
        toolCallId: 'call_0_0',
        toolName: 'view_files',
        input: { paths: ['README.md'] },
      }),
    ]);

    messages.push(...first.response.messages, {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_0_0',
          toolName: 'view_files',
          output: { type: 'text', value: '# Hi' },
        },
      ],
    });
    const second = await generateText({ model, messages, tools });
    expect(second.text).toBe('The README is fine.');
    expect(second.finishReason).toBe('stop');
    expect(second.toolCalls).toEqual([]);

    messages.push(...second.response.messages, user('Anything else?'));
    const third = await generateText({ model, messages, tools });
    expect(third.text).toBe('Done.');
    expect(third.finishReason).toBe('stop');

    // Stateless: the same prompt gets the same answer, whatever was asked before.
    const again = await generateText({ model, messages: [user('Check the README please')], tools });
    expect(again.text).toBe('Let me look.');
  });

  it('picks the first matching script, else the first one without match', async () => {
    const file = await scriptFile({
      scripts: [
        { match: '^deploy', steps: [{ text: 'Deploying.' }] },
        { steps: [{ text: 'Fallback.' }] },
        { match: 'tests?', steps: [{ text: 'Testing.' }] },
        { steps: [{ text: 'Second fallback, never used.' }] },
      ],
    });
    const model = createScriptedModel(file);
    const answer = async (text: string): Promise<string> =>
      (await generateText({ model, messages: [user(text)] })).text;

    expect(await answer('deploy the app')).toBe('Deploying.');
    expect(await answer('run the tests')).toBe('Testing.');
    expect(await answer('please deploy')).toBe('Fallback.');
  });

  it('matches against the first user message only', async () => {
    const model = createScriptedModel(await scriptFile(twoStepScript));
    const result = await generateText({
      model,
      system: 'The README is important.',
      messages: [user('Hello'), { role: 'assistant', content: 'Hi' }, user('Check the README')],
    });
    expect(result.text).toBe('Done.'); // fallback script, step 1 is past its end
  });

  it('fails clearly when no script matches and there is no fallback', async () => {
    const file = await scriptFile({ scripts: [{ match: 'x{3}', steps: [] }] });
    await expect(
      generateText({ model: createScriptedModel(file), messages: [user('hello')] }),
    ).rejects.toThrow(/no script matches the first user message "hello"/);
  });

  it('re-reads the file on every call', async () => {
    const file = await scriptFile({ scripts: [{ steps: [{ text: 'one' }] }] });
    const model = createScriptedModel(file);
    expect((await generateText({ model, messages: [user('q')] })).text).toBe('one');
    await writeFile(file, JSON.stringify({ scripts: [{ steps: [{ text: 'two' }] }] }));
    expect((await generateText({ model, messages: [user('q')] })).text).toBe('two');
  });

  it('reports usage and reasoning, with defaults', async () => {
    const file = await scriptFile({
      scripts: [
        {
          steps: [
            {
              text: 'A',
              reasoning: 'Thinking it over.',
              usage: { input: 500, cached: 2000, output: 40, reasoning: 60 },
            },
            { text: 'B' },
          ],
        },
      ],
    });
    const model = createScriptedModel(file);
    const first = await generateText({ model, messages: [user('q')] });
    expect(first.reasoningText).toBe('Thinking it over.');
    expect(toTokenUsage(first.usage)).toEqual({
      inputTokens: 500,
      cachedTokens: 2000,
      outputTokens: 40,
      reasoningTokens: 60,
    });

    const second = await generateText({ model, messages: [user('q'), ...first.response.messages] });
    expect(toTokenUsage(second.usage)).toEqual({
      inputTokens: 1000,
      cachedTokens: 0,
      outputTokens: 100,
      reasoningTokens: 0,
    });
  });

  it('numbers tool calls by step and position', async () => {
    const file = await scriptFile({
      scripts: [
        {
          steps: [
            { text: 'first' },
            {
              tool_calls: [
                { name: 'run', args: { command: 'ls' } },
                { name: 'run', args: { command: 'pwd' } },
              ],
            },
          ],
        },
      ],
    });
    const result = await generateText({
      model: createScriptedModel(file),
      messages: [user('q'), { role: 'assistant', content: 'first' }, user('go on')],
      tools,
    });
    expect(result.toolCalls.map((call) => [call.toolCallId, call.input])).toEqual([
      ['call_1_0', { command: 'ls' }],
      ['call_1_1', { command: 'pwd' }],
    ]);
  });

  it('waits delay_ms but stops as soon as the call is aborted', async () => {
    const file = await scriptFile({
      scripts: [{ steps: [{ text: 'late', delay_ms: 10_000 }, { text: 'x' }] }],
    });
    const model = createScriptedModel(file);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 30);
    await expect(
      generateText({ model, messages: [user('q')], abortSignal: controller.signal }),
    ).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(2_000);

    const short = await scriptFile({ scripts: [{ steps: [{ text: 'on time', delay_ms: 20 }] }] });
    expect((await generateText({ model: createScriptedModel(short), messages: [user('q')] })).text).toBe(
      'on time',
    );
  });

  it('stops at once when the abort lands before the delay starts', async () => {
    const file = await scriptFile({ scripts: [{ steps: [{ text: 'late', delay_ms: 10_000 }] }] });
    const model = createScriptedModel(file);
    const controller = new AbortController();
    const started = Date.now();
    // The call checks the signal, then reads the script file: the abort lands during that read.
    const call = model.doGenerate({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
      abortSignal: controller.signal,
    });
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('throws an API error for an error step, without retrying', async () => {
    const file = await scriptFile({ scripts: [{ steps: [{ error: 'Overloaded, try later' }] }] });
    const model = createScriptedModel(file);
    const error: unknown = await generateText({ model, messages: [user('q')] }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).message).toBe('Overloaded, try later');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('rejects an unreadable or invalid script file with the reason', async () => {
    const missing = createScriptedModel(join(dir, 'missing.json'));
    await expect(generateText({ model: missing, messages: [user('q')] })).rejects.toThrow(/cannot read/);
    const broken = createScriptedModel(await scriptFile('{ not json'));
    await expect(generateText({ model: broken, messages: [user('q')] })).rejects.toThrow(/not valid JSON/);
    const typo = createScriptedModel(
      await scriptFile(JSON.stringify({ scripts: [{ steps: [{ toolCalls: [] }] }] })),
    );
    await expect(generateText({ model: typo, messages: [user('q')] })).rejects.toThrow(/toolCalls/);
  });

  it('answers a summarization request without using a step, and resumes after it', async () => {
    const file = await scriptFile({
      scripts: [
        { match: 'README', steps: [{ text: 's0' }, { text: 's1' }, { text: 's2' }, { text: 's3' }] },
        { steps: [{ text: 'wrong script' }] },
      ],
    });
    const model = createScriptedModel(file);
    const history: ModelMessage[] = [
      user('Fix the README'),
      { role: 'assistant', content: 's0' },
      user('more'),
      { role: 'assistant', content: 's1' },
    ];

    // The shape the runtime sends: the marker in the system prompt and in a trailing user message.
    const summary = await generateText({
      model,
      system: `${SUMMARIZE_MARKER}\nSummarize.`,
      messages: [...history, user(`${SUMMARIZE_MARKER}: Summarize.`)],
    });
    expect(summary.text).toMatch(/^Summary: 2 assistant turns so far; first request: "Fix the README"\./);
    expect(summary.finishReason).toBe('stop');

    // A marker in a system prompt alone is enough.
    const systemOnly = await generateText({ model, system: SUMMARIZE_MARKER, messages: history });
    expect(systemOnly.text).toBe(summary.text);

    // The summary replaces the history: the same script continues at the same step.
    const compacted: ModelMessage[] = [user(`Summary of the work so far:\n${summary.text}`)];
    expect((await generateText({ model, messages: compacted })).text).toBe('s2');
    compacted.push({ role: 'assistant', content: 's2' }, user('next'));
    expect((await generateText({ model, messages: compacted })).text).toBe('s3');

    // A second summarization carries the total forward.
    const again = await generateText({ model, messages: [...compacted, user(SUMMARIZE_MARKER)] });
    expect(again.text).toMatch(/^Summary: 3 assistant turns so far\./);
    expect((await generateText({ model, messages: [user(again.text)] })).text).toBe('s3');
  });

  it('streams the same answers through streamText', async () => {
    const model = createScriptedModel(await scriptFile(twoStepScript));
    const first = streamText({ model, messages: [user('Check the README please')], tools });
    const deltas: string[] = [];
    for await (const delta of first.textStream) deltas.push(delta);
    expect(deltas).toEqual(['Let ', 'me ', 'look.']);
    expect(await first.finishReason).toBe('tool-calls');
    expect(await first.toolCalls).toEqual([
      expect.objectContaining({
        toolCallId: 'call_0_0',
        toolName: 'view_files',
        input: { paths: ['README.md'] },
      }),
    ]);
    expect(toTokenUsage(await first.usage)).toEqual({
      inputTokens: 1000,
      cachedTokens: 0,
      outputTokens: 100,
      reasoningTokens: 0,
    });

    const messages: ModelMessage[] = [
      user('Check the README please'),
      ...(await first.response).messages,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_0_0',
            toolName: 'view_files',
            output: { type: 'text', value: '#' },
          },
        ],
      },
    ];
    const second = streamText({ model, messages, tools });
    expect(await second.text).toBe('The README is fine.');
    expect(await second.finishReason).toBe('stop');
  });

  it('streams reasoning', async () => {
    const file = await scriptFile({
      scripts: [{ steps: [{ reasoning: 'Hmm, let me think.', text: 'Answer.' }] }],
    });
    const result = streamText({ model: createScriptedModel(file), messages: [user('q')] });
    expect(await result.reasoningText).toBe('Hmm, let me think.');
    expect(await result.text).toBe('Answer.');
  });
});
