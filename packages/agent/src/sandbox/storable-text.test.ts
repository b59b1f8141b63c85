import { describe, expect, it } from 'vitest';
import { storableDeep, storableText } from './storable-text.js';

describe('storableText', () => {
  it('drops NUL and replaces lone surrogates, leaving pairs and other text alone', () => {
    expect(storableText('a\u0000b\u0000')).toBe('ab');
    expect(storableText('\ud800x\udfff 😀 ok')).toBe('\ufffdx\ufffd 😀 ok');
    const plain = 'nothing odd here ✓';
    expect(storableText(plain)).toBe(plain);
  });

  it('cleans every string and key of a JSON-like value, keeping its shape', () => {
    const bytes = new Uint8Array([0, 1]);
    expect(storableDeep({ 'k\u0000': ['x\u0000', { y: '\udc00', n: 1, b: true, z: null }], bytes })).toEqual({
      k: ['x', { y: '\ufffd', n: 1, b: true, z: null }],
      bytes,
    });
  });
});
