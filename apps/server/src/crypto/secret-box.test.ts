import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  const box = new SecretBox('k'.repeat(32));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('ghu_secret-token');
    expect(sealed).not.toContain('ghu_secret-token');
    expect(box.open(sealed)).toBe('ghu_secret-token');
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('rejects tampering and other keys', () => {
    const sealed = box.seal('value');
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    expect(() => box.open(flipped)).toThrow();
    expect(() => new SecretBox('x'.repeat(32)).open(sealed)).toThrow();
  });
});
