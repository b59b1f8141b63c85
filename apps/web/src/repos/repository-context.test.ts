import { describe, expect, it } from 'vitest';
import { tabOf } from './repository-context';

describe('tabOf', () => {
  it('names the tab of each repository sub-path, Agents by default', () => {
    expect(tabOf('/gh/acme/webapp', 'acme/webapp')).toBe('agents');
    expect(tabOf('/gh/acme/webapp/agents', 'acme/webapp')).toBe('agents');
    expect(tabOf('/gh/acme/webapp/settings', 'acme/webapp')).toBe('settings');
    expect(tabOf('/gh/acme/webapp/logs', 'acme/webapp')).toBe('logs');
    expect(tabOf('/gh/acme/webapp/log/1234', 'acme/webapp')).toBe('logs');
  });
});
