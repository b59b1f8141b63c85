import { describe, expect, it } from 'vitest';
import { describeSandbox } from './runtime-setup.js';

describe('describeSandbox', () => {
  const bwrap = { kind: 'bubblewrap' as const, detail: 'bwrap 0.8.0, network: slirp4netns 1.2.0' };

  it('reports what the probe found when agents have the network', () => {
    expect(describeSandbox(bwrap, true)).toBe('bubblewrap (bwrap 0.8.0, network: slirp4netns 1.2.0)');
  });

  it('says the network is off when TANDEM_SANDBOX_NETWORK=off, not the slirp version', () => {
    expect(describeSandbox(bwrap, false)).toBe(
      'bubblewrap (bwrap 0.8.0, network: off (TANDEM_SANDBOX_NETWORK=off))',
    );
  });

  it('leaves process mode as it is', () => {
    expect(describeSandbox({ kind: 'process', detail: 'bwrap not found on PATH' }, false)).toBe(
      'process (bwrap not found on PATH)',
    );
  });
});
