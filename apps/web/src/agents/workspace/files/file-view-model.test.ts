import { describe, expect, it } from 'vitest';
import {
  agentFileUrl,
  countLines,
  displayRef,
  fileFetchErrorMessage,
  fileTabTitle,
  lineNumbers,
} from './file-view-model';

describe('fileFetchErrorMessage', () => {
  it('asks the signed-in to wait and the anonymous to log in on 429', () => {
    expect(fileFetchErrorMessage(429, true)).toBe('Request rate limit reached. Please try again later.');
    expect(fileFetchErrorMessage(429, false)).toBe(
      'Request rate limit reached. Please login to increase your limits.',
    );
  });

  it('explains 401 and 403 whoever asks', () => {
    for (const loggedIn of [true, false]) {
      expect(fileFetchErrorMessage(401, loggedIn)).toBe('You must be logged in to view this file.');
      expect(fileFetchErrorMessage(403, loggedIn)).toBe(
        'You do not have permission to view this file. Ask the owner of the github repository to add you.',
      );
    }
  });

  it('calls everything else unknown, network failures included', () => {
    for (const status of [0, 400, 404, 500, 502, 503]) {
      expect(fileFetchErrorMessage(status, true)).toBe(
        'There was an unknown error fetching this files contents.',
      );
    }
  });
});

describe('file paths and refs', () => {
  it('titles a tab with the base name', () => {
    expect(fileTabTitle('src/app/main.ts')).toBe('main.ts');
    expect(fileTabTitle('README.md')).toBe('README.md');
    expect(fileTabTitle('docs/')).toBe('docs');
  });

  it('shortens shas but not branch names', () => {
    expect(displayRef('0123456789abcdef0123456789abcdef01234567')).toBe('0123456');
    expect(displayRef('main')).toBe('main');
    expect(displayRef('feature/login-fix')).toBe('feature/login-fix');
  });

  it('builds the file URL, leaving out a missing ref', () => {
    expect(agentFileUrl('a-1', 'acme/web', 'src/a b.ts', 'main')).toBe(
      '/api/agent/file?trajectory_id=a-1&repository_name=acme%2Fweb&path=src%2Fa+b.ts&ref=main',
    );
    expect(agentFileUrl('a-1', 'acme/web', 'x', null)).toBe(
      '/api/agent/file?trajectory_id=a-1&repository_name=acme%2Fweb&path=x',
    );
  });
});

describe('line counting', () => {
  it('counts lines, a final newline not starting another', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\n\n')).toBe(2);
    expect(countLines('\n')).toBe(1);
  });

  it('numbers the gutter', () => {
    expect(lineNumbers(3)).toBe('1\n2\n3');
    expect(lineNumbers(0)).toBe('');
  });
});
