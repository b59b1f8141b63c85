import { describe, expect, it } from 'vitest';
import { detectSandbox, detectSandboxSync } from './detect.js';

describe('detectSandbox', () => {
  it('reports a kind with a detail and caches the result', async () => {
    const support = await detectSandbox();
    // Under bubblewrap the detail says whether agents can have a network: never the host's.
    if (support.kind === 'bubblewrap')
      expect(support.detail).toMatch(/^bwrap \d+\.\d+.*, network: (slirp4netns \d+\.\d+|none \(.+\))/);
    else expect(support.detail).toMatch(/^bwrap (not found on PATH|failed: )/);
    expect(await detectSandbox()).toBe(support);
    expect(detectSandboxSync()).toBe(support);
  });

  it('force: process skips the probe', async () => {
    expect(await detectSandbox({ force: 'process' })).toEqual({
      kind: 'process',
      detail: 'forced process mode',
    });
  });

  it('force: bubblewrap fails loudly where bwrap cannot run', async () => {
    const auto = await detectSandbox();
    if (auto.kind === 'bubblewrap') {
      expect((await detectSandbox({ force: 'bubblewrap' })).kind).toBe('bubblewrap');
    } else {
      await expect(detectSandbox({ force: 'bubblewrap' })).rejects.toThrow(/unusable/);
    }
  });
});
