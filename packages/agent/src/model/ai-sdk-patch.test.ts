import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { generateText, InvalidPromptError, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';

/**
 * scripts/patch-dependencies.mjs: the AI SDK checks every call's messages against one array schema
 * instead of one made per call, whose first parse walked the whole message schema each time
 * (docs/decisions.md "One prompt schema for every model call").
 */
const aiDist = dirname(createRequire(import.meta.url).resolve('ai'));

const model = () =>
  new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'Done.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      },
      warnings: [],
    }),
  });

const valid: ModelMessage[] = [
  { role: 'user', content: 'List the files.' },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'run_command', input: { command: 'ls' } }],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'run_command',
        output: { type: 'json', value: { files: ['a', { nested: [1, null, true] }] } },
      },
    ],
  },
];
// A tool result whose output is not one of the SDK's output shapes.
const invalid = [
  { role: 'user', content: 'List the files.' },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'x', output: 42 }] },
] as unknown as ModelMessage[];

describe('the installed AI SDK', () => {
  it('is patched in its ESM and CommonJS builds (npm ci runs the script as postinstall)', () => {
    for (const [file, array] of [
      ['index.mjs', 'z6.array'],
      ['index.js', 'import_v46.z.array'],
    ] as const) {
      const text = readFileSync(join(aiDist, file), 'utf8');
      expect(text).toContain(
        `schema: standardizePrompt.tandemMessagesSchema ??= ${array}(modelMessageSchema)`,
      );
      expect(text).not.toContain(`schema: ${array}(modelMessageSchema)\n`);
    }
  });

  it('still refuses messages that are not ModelMessage[], call after call', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await generateText({ model: model(), system: 'Be brief.', messages: valid });
      expect(answer.text).toBe('Done.');
      const refused = await generateText({ model: model(), system: 'Be brief.', messages: invalid }).catch(
        (error: unknown) => error,
      );
      expect(InvalidPromptError.isInstance(refused)).toBe(true);
      expect((refused as Error).message).toContain('The messages do not match the ModelMessage[] schema.');
    }
  });
});
