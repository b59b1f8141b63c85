import { afterEach, describe, expect, it } from 'vitest';
import {
  initialRepository,
  orderRepositories,
  readLastUsedRepos,
  rememberRepository,
  repositoryError,
  withLastUsed,
} from './repositories';

describe('repositoryError', () => {
  it('asks for a repository when there is none', () => {
    expect(repositoryError('')).toBe('Must select a repository');
    expect(repositoryError('   ')).toBe('Must select a repository');
  });

  it('takes owner/name of letters, digits, -, _ and .', () => {
    expect(repositoryError('acme/webapp')).toBeNull();
    expect(repositoryError(' my-org_1/repo.name-2 ')).toBeNull();
    for (const bad of ['webapp', 'acme/', '/webapp', 'acme/web app', 'acme/web/app', 'ac!me/webapp']) {
      expect(repositoryError(bad)).toBe('Invalid Repository Name');
    }
  });
});

describe('last-used repositories', () => {
  afterEach(() => localStorage.clear());

  it('moves the latest to the front without duplicates', () => {
    expect(withLastUsed([], 'acme/webapp')).toEqual(['acme/webapp']);
    expect(withLastUsed(['acme/api', 'acme/webapp'], 'acme/webapp')).toEqual(['acme/webapp', 'acme/api']);
    expect(withLastUsed(['acme/api', 'acme/webapp'], 'ACME/WebApp')).toEqual(['ACME/WebApp', 'acme/api']);
  });

  it('are kept in localStorage lastUsedRepos, most recent first', () => {
    rememberRepository('acme/api');
    rememberRepository('acme/webapp');
    expect(JSON.parse(localStorage.getItem('lastUsedRepos') ?? '')).toEqual(['acme/webapp', 'acme/api']);
    expect(readLastUsedRepos()).toEqual(['acme/webapp', 'acme/api']);
  });

  it('read as none when the stored value is not a list of names', () => {
    localStorage.setItem('lastUsedRepos', '{nope');
    expect(readLastUsedRepos()).toEqual([]);
    localStorage.setItem('lastUsedRepos', '{"a":1}');
    expect(readLastUsedRepos()).toEqual([]);
    localStorage.setItem('lastUsedRepos', '["acme/api", 3]');
    expect(readLastUsedRepos()).toEqual(['acme/api']);
  });

  it('come first in the picker, the rest in their order; unknown ones are left out', () => {
    const repos = ['acme/api', 'acme/webapp', 'ada/playground'];
    expect(orderRepositories(repos, [])).toEqual(repos);
    expect(orderRepositories(repos, ['ada/playground', 'gone/repo', 'acme/webapp'])).toEqual([
      'ada/playground',
      'acme/webapp',
      'acme/api',
    ]);
    expect(orderRepositories(repos, ['ACME/WEBAPP'])).toEqual(['acme/webapp', 'acme/api', 'ada/playground']);
  });

  it('pick the starting repository: the page one, else the last used the user still has', () => {
    const repos = ['acme/api', 'acme/webapp'];
    expect(initialRepository(repos, ['acme/webapp'], 'acme/api')).toBe('acme/api');
    expect(initialRepository(repos, ['acme/webapp', 'acme/api'])).toBe('acme/webapp');
    expect(initialRepository(repos, ['gone/repo', 'acme/api'])).toBe('');
    expect(initialRepository(repos, [])).toBe('');
  });
});
