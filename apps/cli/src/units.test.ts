import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationItem } from '@tandem/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { remoteRepo } from './commands/checkout.js';
import { listSearch } from './commands/list.js';
import { configPath, resolveTarget, writeConfig } from './config.js';
import { compactDiff } from './diff.js';
import { FeedPrinter } from './render.js';
import { colorEnabled, createStyle } from './style.js';

/** The CLI's pure pieces; the commands themselves are tested end to end in apps/server/src/cli. */

const dir = mkdtempSync(join(tmpdir(), 'tandem-cli-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('config', () => {
  it('lives under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configPath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/tandem/config.json');
    expect(configPath({})).toMatch(/\.config\/tandem\/config\.json$/);
  });

  it('is written 0600, even over a looser file', () => {
    const path = join(dir, 'a/tandem/config.json');
    writeConfig({ url: 'http://a', token: 't' }, path);
    writeFileSync(path, '{}', { mode: 0o644 });
    writeConfig({ url: 'http://a', token: 't' }, path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ url: 'http://a', token: 't' });
  });

  it('takes --url over TANDEM_URL over the file, and sends the stored token only to its server', () => {
    const path = join(dir, 'b/config.json');
    writeConfig({ url: 'http://stored:1/', token: 'stored' }, path);
    expect(resolveTarget(undefined, {}, path)).toEqual({ url: 'http://stored:1', token: 'stored' });
    expect(resolveTarget(undefined, { TANDEM_URL: 'http://env:2' }, path)).toEqual({
      url: 'http://env:2',
      token: undefined,
    });
    expect(resolveTarget('http://flag:3', { TANDEM_URL: 'http://env:2', TANDEM_TOKEN: 'e' }, path)).toEqual({
      url: 'http://flag:3',
      token: 'e',
    });
    expect(resolveTarget(undefined, {}, join(dir, 'none.json'))).toEqual({
      url: 'http://localhost:8080',
      token: undefined,
    });
  });
});

describe('remoteRepo', () => {
  it.each([
    ['https://github.com/acme/webapp.git', 'acme/webapp'],
    ['https://x-access-token:t@127.0.0.1:4000/acme/webapp', 'acme/webapp'],
    ['git@github.com:acme/webapp.git', 'acme/webapp'],
    ['ssh://git@github.com/acme/webapp.git', 'acme/webapp'],
    ['https://git.example.com/sub/path/acme/webapp.git/', 'acme/webapp'],
    ['../repo.git', undefined],
  ])('%s → %s', (url, repo) => expect(remoteRepo(url)).toBe(repo));
});

describe('listSearch', () => {
  it("defaults to your unarchived agents, like the web app's list", () => {
    expect(listSearch({})).toBe('creator:me is:unarchived');
    expect(listSearch({ archived: true, all: true, search: 'login bug' })).toBe('login bug is:archived');
    expect(listSearch({ search: 'creator:bob is:archived' })).toBe('creator:bob is:archived');
  });
});

describe('compactDiff', () => {
  it('shows changed lines with two lines of context', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].join('\n');
    const after = ['a', 'b', 'c', 'D', 'e', 'f', 'g'].join('\n');
    expect(compactDiff(before, after)).toEqual(['@@ line 2 @@', ' b', ' c', '-d', '+D', ' e', ' f']);
  });

  it('caps long diffs', () => {
    const after = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const lines = compactDiff('', after, 2, 10);
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe('… 91 more diff lines');
  });
});

describe('FeedPrinter', () => {
  const item = (fields: Partial<ConversationItem> & Record<string, unknown>): ConversationItem => ({
    action_uuid: crypto.randomUUID(),
    pid: null,
    timestamp: '2026-01-01T00:00:00.000Z',
    action_type: null,
    user_id: null,
    item_type: 'message',
    ...fields,
  });

  it('prints each item once, a shell with its output, and colours only when asked', () => {
    const shell = item({ item_type: 'shell', pid: 7, command: 'npm test' });
    const items = [
      item({ username: 'ada', message: 'Add subtract' }),
      shell,
      item({ item_type: 'shell_message', pid: 7, message_type: 'stdin', message: 'npm test' }),
      item({ item_type: 'shell_message', pid: 7, message_type: 'stdout', message: 'pass 3\n' }),
      item({ item_type: 'commit', commit_sha: 'abcdef123', branch: 'tandem-1', commit_message: 'Add' }),
      item({ item_type: 'action', action_type: 'ErrorEvent', exception: 'boom' }),
    ];
    const printer = new FeedPrinter(createStyle(false));
    expect(printer.render(items)).toEqual([
      '',
      'ada',
      '  Add subtract',
      '$ npm test',
      '  │ pass 3',
      '● Committed abcdef1 to tandem-1: Add',
      '✗ boom',
    ]);
    expect(printer.render(items)).toEqual([]);
    expect(new FeedPrinter(createStyle(true)).render([items[5]!])).toEqual(['\u001b[31m✗ boom\u001b[39m']);
  });

  it('respects NO_COLOR and non-terminals', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
  });
});
