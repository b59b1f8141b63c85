import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseLandingVariant } from './landing-variant';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  };
}

describe('chooseLandingVariant', () => {
  afterEach(() => vi.restoreAllMocks());

  it('takes a valid query value first and remembers it', () => {
    const storage = memoryStorage({ landingVariant: 'twobutton' });
    expect(chooseLandingVariant('loginrequest', storage)).toBe('loginrequest');
    expect(storage.data.get('landingVariant')).toBe('loginrequest');
  });

  it('logs and ignores an invalid query value, falling back to storage', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(chooseLandingVariant('purple', memoryStorage({ landingVariant: 'loginrequest' }))).toBe(
      'loginrequest',
    );
    expect(warn).toHaveBeenCalledWith('Ignoring invalid landingVariant "purple"');
  });

  it('picks at random and stores the pick when nothing is set', () => {
    const storage = memoryStorage();
    expect(chooseLandingVariant(null, storage, () => 0.9)).toBe('loginrequest');
    expect(storage.data.get('landingVariant')).toBe('loginrequest');
    expect(chooseLandingVariant(null, memoryStorage(), () => 0.1)).toBe('twobutton');
  });

  it('ignores an invalid stored value', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(chooseLandingVariant(null, memoryStorage({ landingVariant: 'x' }), () => 0)).toBe('twobutton');
  });
});
