import { describe, expect, it } from 'vitest';
import { isPublicPath, isWorkspacePath } from './site-sections';

describe('site sections', () => {
  it.each([
    ['/agent/123', true],
    ['/agents/123', true],
    ['/gh/acme/webapp/agent/123', true],
    ['/party', true],
    ['/agents', false],
    ['/gh/acme/webapp/agents', false],
    ['/docs', false],
  ])('%s is a workspace page: %s', (path, expected) => {
    expect(isWorkspacePath(path)).toBe(expected);
  });

  it.each([
    ['/docs/cli', true],
    ['/blog', true],
    ['/blog/post-1', true],
    ['/privacy', true],
    ['/agents', false],
    ['/documentation', false],
  ])('%s is public: %s', (path, expected) => {
    expect(isPublicPath(path)).toBe(expected);
  });
});
