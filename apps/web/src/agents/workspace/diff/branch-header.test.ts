import type { AgentBranch } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { canCreatePr, createPrUrl, diffTabTitle } from './branch-header';

const branch = (over: Partial<AgentBranch> = {}): AgentBranch => ({
  repository_name: 'acme/webapp',
  branch: 'tandem-1',
  base_branch: 'main',
  pushed: true,
  pull_request: null,
  draft_title: 'Fix login & logout',
  draft_body: 'Line one\nLine two',
  commits: [{ sha: 'abc', title: 'Last commit' }],
  base_sha: 'base',
  compare_url: 'https://github.com/acme/webapp/compare/main...tandem-1',
  ...over,
});

describe('diff tab title', () => {
  it('is the PR number, else the branch, else Diff', () => {
    expect(
      diffTabTitle(branch({ pull_request: { number: 12, title: 't', body: '', state: 'open' } }), 's'),
    ).toBe('#12');
    expect(diffTabTitle(branch(), 's')).toBe('tandem-1');
    expect(diffTabTitle(undefined, 's')).toBe('Diff');
    expect(diffTabTitle(branch(), null)).toBe('Diff');
  });
});

describe('Create PR', () => {
  it('is offered for a pushed branch without a pull request', () => {
    expect(canCreatePr(branch())).toBe(true);
    expect(canCreatePr(branch({ pushed: false }))).toBe(false);
    expect(canCreatePr(branch({ pull_request: { number: 1, title: '', body: '', state: 'open' } }))).toBe(
      false,
    );
  });

  it('opens the compare page with expand, title and body as query parameters', () => {
    const url = new URL(createPrUrl(branch()));
    expect(url.origin + url.pathname).toBe('https://github.com/acme/webapp/compare/main...tandem-1');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      expand: '1',
      title: 'Fix login & logout',
      body: 'Line one\nLine two',
    });
  });

  it('falls back to the last commit title and keeps an existing query', () => {
    const url = createPrUrl(branch({ draft_title: '', compare_url: 'https://h/c?x=1' }));
    expect(url).toBe('https://h/c?x=1&expand=1&title=Last+commit&body=Line+one%0ALine+two');
  });
});
