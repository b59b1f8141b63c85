import { describe, expect, it } from 'vitest';
import { answerFrame, framePath, parseFrameMessage } from './frame-messages';
import { newPreviewTabs } from './auto-open-preview';
import { openInNewTabUrl } from './preview-api';

describe('preview frame messaging', () => {
  it('answers AUTH_REQUEST with AUTH_TOKEN, or AUTH_ERROR when there is no token', async () => {
    expect(await answerFrame({ type: 'AUTH_REQUEST' }, async () => 'tok')).toEqual({
      type: 'AUTH_TOKEN',
      token: 'tok',
    });
    expect(
      await answerFrame({ type: 'AUTH_REQUEST' }, async () => {
        throw new Error('Unauthorized');
      }),
    ).toEqual({ type: 'AUTH_ERROR', error: 'Unauthorized' });
    expect(await answerFrame({ type: 'LOCATION', href: 'http://x/' }, async () => 'tok')).toBeNull();
  });

  it('ignores whatever else a page posts', () => {
    expect(parseFrameMessage({ type: 'AUTH_REQUEST' })).toEqual({ type: 'AUTH_REQUEST' });
    expect(parseFrameMessage('hello')).toBeNull();
    expect(parseFrameMessage({ type: 'webpackOk' })).toBeNull();
    expect(parseFrameMessage({ type: 'AUTH_TOKEN' })).toBeNull();
  });

  it("shows the frame's path when it stays on the preview's origin", () => {
    expect(framePath('http://app-3000.localhost:8080/a/b?c=1#d', 'http://app-3000.localhost:8080')).toBe(
      '/a/b?c=1#d',
    );
    expect(framePath('https://elsewhere.test/x', 'http://app-3000.localhost:8080')).toBe(
      'https://elsewhere.test/x',
    );
    expect(framePath('not a url', 'http://a.localhost')).toBe('/');
  });

  it('opens a new tab through the sign-in page, the token only in the fragment', () => {
    expect(openInNewTabUrl('http://app.localhost:8080/', '/docs?x=1', 'a.b.c')).toBe(
      'http://app.localhost:8080/__tandem/open?next=%2Fdocs%3Fx%3D1#token=a.b.c',
    );
    expect(openInNewTabUrl('http://app.localhost:8080/', 'https://evil.test/', 't')).toContain('next=%2F#');
  });

  it('opens a tab only for ports not seen before', () => {
    expect(newPreviewTabs([3000, 5173], new Set([3000]))).toEqual([{ kind: 'preview', port: 5173 }]);
    expect(newPreviewTabs([3000], new Set([3000]))).toEqual([]);
  });
});
