import { SECRET_MESSAGES } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { needsShortValueConfirmation, secretProblem } from './secret-rules';

describe('secretProblem', () => {
  const existing = [{ key: 'API_KEY', created_at: '2026-01-01T00:00:00Z' }];

  it('checks the upper-cased name, then duplicates, then the value', () => {
    expect(secretProblem('1bad', 'value', existing)).toEqual({
      field: 'key',
      message: SECRET_MESSAGES.invalidName,
    });
    expect(secretProblem('has-dash', 'value', existing)?.message).toBe(SECRET_MESSAGES.invalidName);
    expect(secretProblem('api_key', 'value', existing)).toEqual({
      field: 'key',
      message: SECRET_MESSAGES.duplicate,
    });
    expect(secretProblem('OTHER', '   ', existing)?.field).toBe('value');
    expect(secretProblem('other', 'value', existing)).toBeNull();
  });

  it('asks for confirmation below six characters', () => {
    expect(needsShortValueConfirmation('abcde')).toBe(true);
    expect(needsShortValueConfirmation('abcdef')).toBe(false);
  });
});
