import { describe, expect, it } from 'vitest';
import { coalesced } from './coalesced.js';

/** A statement stand-in: records each call's keys and answers when released. */
function recorder(answer: (key: string) => string | undefined = (key) => key.toUpperCase()) {
  const calls: string[][] = [];
  const releases: (() => void)[] = [];
  let failOn: string | null = null;
  const run = (keys: string[]) => {
    calls.push(keys);
    return new Promise<Map<string, string>>((resolve, reject) => {
      releases.push(() => {
        if (failOn && keys.includes(failOn)) reject(new Error(`bad key ${failOn}`));
        else
          resolve(
            new Map(
              keys.flatMap((key) => {
                const value = answer(key);
                return value === undefined ? [] : [[key, value] as [string, string]];
              }),
            ),
          );
      });
    });
  };
  const releaseAll = async () => {
    while (releases.length) {
      releases.shift()!();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { run, calls, releaseAll, failOn: (key: string) => (failOn = key) };
}

describe('coalesced', () => {
  it('runs a lone call at once, on its own', async () => {
    const statement = recorder();
    const one = coalesced(statement.run);
    const answer = one('a');
    expect(statement.calls).toEqual([['a']]);
    await statement.releaseAll();
    expect(await answer).toBe('A');
  });

  it('takes the calls that queue behind a statement in one statement', async () => {
    const statement = recorder();
    const one = coalesced(statement.run);
    const answers = ['a', 'b', 'c', 'd'].map(one);
    expect(statement.calls).toEqual([['a']]);
    await statement.releaseAll();
    expect(statement.calls).toEqual([['a'], ['b', 'c', 'd']]);
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('answers undefined for a key the statement left out', async () => {
    const statement = recorder((key) => (key === 'gone' ? undefined : key));
    const one = coalesced(statement.run);
    const answers = [one('x'), one('gone'), one('y')];
    await statement.releaseAll();
    expect(await Promise.all(answers)).toEqual(['x', undefined, 'y']);
  });

  it('gives a key called again while queued a statement of its own', async () => {
    const statement = recorder();
    const one = coalesced(statement.run);
    const answers = [one('first'), one('a'), one('b'), one('a')];
    await statement.releaseAll();
    expect(statement.calls).toEqual([['first'], ['a', 'b'], ['a']]);
    expect(await Promise.all(answers)).toEqual(['FIRST', 'A', 'B', 'A']);
  });

  it('takes at most maxKeys keys a statement', async () => {
    const statement = recorder();
    const one = coalesced(statement.run, { maxKeys: 2 });
    const answers = ['a', 'b', 'c', 'd', 'e'].map(one);
    await statement.releaseAll();
    expect(statement.calls).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('fails only the caller whose key fails: the others run again alone', async () => {
    const statement = recorder();
    const one = coalesced(statement.run);
    statement.failOn('bad');
    const answers = ['a', 'b', 'bad', 'c'].map((key) => one(key).catch((error: Error) => error.message));
    await statement.releaseAll();
    expect(statement.calls).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'bad key bad', 'C']);
  });

  it('keeps going after a failed lone statement', async () => {
    const statement = recorder();
    const one = coalesced(statement.run);
    statement.failOn('bad');
    const failed = one('bad').catch((error: Error) => error.message);
    const next = one('ok');
    await statement.releaseAll();
    expect(await failed).toBe('bad key bad');
    expect(await next).toBe('OK');
    const later = one('later');
    await statement.releaseAll();
    expect(await later).toBe('LATER');
  });

  it('with shareQueued, answers the queued calls of a key with one statement', async () => {
    const statement = recorder();
    const one = coalesced(statement.run, { shareQueued: true, maxKeys: 2 });
    const answers = ['first', 'a', 'a', 'b', 'a', 'c', 'first'].map(one);
    await statement.releaseAll();
    // A key's calls count once against maxKeys; 'first', queued again while its statement ran,
    // gets a statement after it.
    expect(statement.calls).toEqual([['first'], ['a', 'b'], ['c', 'first']]);
    expect(await Promise.all(answers)).toEqual(['FIRST', 'A', 'A', 'B', 'A', 'C', 'FIRST']);
  });

  it('with shareQueued, fails every call of the failing key, and only those', async () => {
    const statement = recorder();
    const one = coalesced(statement.run, { shareQueued: true });
    statement.failOn('bad');
    const answers = ['first', 'bad', 'ok', 'bad'].map((key) =>
      one(key).catch((error: Error) => error.message),
    );
    await statement.releaseAll();
    expect(statement.calls).toEqual([['first'], ['bad', 'ok'], ['bad'], ['ok']]);
    expect(await Promise.all(answers)).toEqual(['FIRST', 'bad key bad', 'OK', 'bad key bad']);
  });
});
