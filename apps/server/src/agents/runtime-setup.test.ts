import { describe, expect, it } from 'vitest';
import { describeSandbox, QUEUE_POOL_MAX, queuePoolSize } from './runtime-setup.js';

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

describe('queuePoolSize', () => {
  it('keeps concurrency + 2 for small concurrencies and caps large ones', () => {
    expect(queuePoolSize(1)).toBe(3);
    expect(queuePoolSize(4)).toBe(6);
    expect(queuePoolSize(8)).toBe(QUEUE_POOL_MAX);
    expect(queuePoolSize(100)).toBe(QUEUE_POOL_MAX);
  });
});
