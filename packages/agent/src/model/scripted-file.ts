import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * The scripted model's file format (TANDEM_SCRIPTED_MODEL_FILE). Strict objects, so a typo such
 * as "toolCalls" fails the test loudly instead of being silently ignored.
 *
 * {
 *   "scripts": [
 *     {
 *       "match": "regex (JavaScript syntax, no flags) tested against the first user message text;
 *                 optional: the first script without one is the fallback",
 *       "steps": [
 *         {
 *           "text": "assistant text (optional)",
 *           "reasoning": "reasoning text (optional)",
 *           "tool_calls": [{ "name": "view_files", "args": { "paths": ["README.md"] } }],
 *           "usage": { "input": 1000, "cached": 0, "output": 100, "reasoning": 0 },
 *           "delay_ms": 0,
 *           "error": "makes the call fail with this message (optional)"
 *         }
 *       ]
 *     }
 *   ]
 * }
 *
 * usage: input = uncached input, output = output without reasoning (the TokenUsage meanings), every
 * field optional, defaults input 1000, cached 0, output 100, reasoning 0.
 */
const usageSchema = z.strictObject({
  input: z.number().int().nonnegative().optional(),
  cached: z.number().int().nonnegative().optional(),
  output: z.number().int().nonnegative().optional(),
  reasoning: z.number().int().nonnegative().optional(),
});

const stepSchema = z.strictObject({
  text: z.string().optional(),
  reasoning: z.string().optional(),
  tool_calls: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        args: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional(),
  usage: usageSchema.optional(),
  delay_ms: z.number().nonnegative().optional(),
  error: z.string().optional(),
});

const scriptSchema = z.strictObject({
  match: z
    .string()
    .refine((source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    }, 'must be a valid regular expression')
    .optional(),
  steps: z.array(stepSchema),
});

export const scriptFileSchema = z.strictObject({ scripts: z.array(scriptSchema) });

export type ScriptFile = z.infer<typeof scriptFileSchema>;
export type Script = ScriptFile['scripts'][number];
export type ScriptStep = Script['steps'][number];

/** Read on every call on purpose: tests rewrite the file between runs of a long-lived server. */
export async function readScriptFile(file: string): Promise<ScriptFile> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`Scripted model: cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new Error(`Scripted model: ${file} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const parsed = scriptFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`Scripted model: ${file} is invalid: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** The first script whose `match` matches, else the first script without `match`. */
export function pickScript(file: ScriptFile, firstUserText: string): number | undefined {
  const matched = file.scripts.findIndex(
    (script) => script.match !== undefined && new RegExp(script.match).test(firstUserText),
  );
  if (matched !== -1) return matched;
  const fallback = file.scripts.findIndex((script) => script.match === undefined);
  return fallback === -1 ? undefined : fallback;
}
