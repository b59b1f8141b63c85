import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  cleanText,
  jsonProblems,
  MAX_JSON_DEPTH,
  storableJsonSchema,
  textProblem,
  userText,
} from './text.js';

describe('storable text', () => {
  it('finds NUL and unpaired surrogates, and leaves real pairs alone', () => {
    expect(textProblem('plain ✓ 💩')).toBeNull();
    expect(textProblem('a\u0000b')).toBe('nul');
    expect(textProblem('\ud800')).toBe('surrogate');
    expect(textProblem('x\udfff')).toBe('surrogate');
    expect(textProblem('\udfff\ud800')).toBe('surrogate');
    expect(textProblem('\ud83d\udca9')).toBeNull();
  });

  it('cleans free text: NUL removed, lone surrogates replaced', () => {
    expect(cleanText('a\u0000b\u0000')).toBe('ab');
    expect(cleanText('x\ud800y\udc00')).toBe('x\ufffdy\ufffd');
    expect(cleanText('\ud83d\udca9')).toBe('\ud83d\udca9');
  });

  it('userText cleans before the inner rules run', () => {
    const title = userText(z.string().trim().min(1, 'Title is required'));
    expect(title.parse('Hello\u0000')).toBe('Hello');
    expect(title.safeParse('\u0000').success).toBe(false);
  });

  it('walks JSON without recursion and reports paths', () => {
    const problems = jsonProblems({ a: ['ok', 'n\u0000'], ['k\ud800']: 1 });
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: ['a', 1], problem: 'nul' },
        { path: ['k\ud800'], problem: 'surrogate' },
      ]),
    );
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonProblems(deep)).toEqual([{ path: Array(MAX_JSON_DEPTH).fill(0), problem: 'depth' }]);
    expect(jsonProblems(new Date())).toEqual([]);
  });

  it('reports problems in the order of the value, each with its own path', () => {
    const value = JSON.parse(
      '{"__proto__": {"x": "a\\u0000"}, "list": [{"k\\ud800": ["ok", "\\udc00"]}, "b\\u0000"], "z": 1}',
    ) as unknown;
    expect(jsonProblems(value)).toEqual([
      { path: ['__proto__', 'x'], problem: 'nul' },
      { path: ['list', 0, 'k\ud800'], problem: 'surrogate' },
      { path: ['list', 0, 'k\ud800', 1], problem: 'surrogate' },
      { path: ['list', 1], problem: 'nul' },
    ]);
    expect(jsonProblems(value, 2)).toEqual([
      { path: ['__proto__', 'x'], problem: 'nul' },
      { path: ['list', 0], problem: 'depth' },
      { path: ['list', 1], problem: 'nul' },
    ]);
    expect(jsonProblems(value, 32, 2)).toHaveLength(2);
    expect(jsonProblems({ a: 'fine', b: [1, true, null, { c: 'also fine' }] })).toEqual([]);
  });

  it('storableJsonSchema refuses what jsonb would refuse', () => {
    expect(storableJsonSchema.safeParse({ path: '/x', n: 1 }).success).toBe(true);
    const bad = storableJsonSchema.safeParse({ path: '/\u0000' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['path'],
      message: 'Text cannot contain NUL characters',
    });
  });
});
