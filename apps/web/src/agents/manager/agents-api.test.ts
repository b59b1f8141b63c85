import { describe, expect, it } from 'vitest';
import { agentListUrl, withArchived } from './agents-api';
import { agent } from './test-support';

const params = { page: 2, rowsPerPage: 10, searchTerm: 'creator:me fix' };

describe('agentListUrl', () => {
  it('lists all agents, or one repository, with the paging, search and order', () => {
    expect(agentListUrl({ params, order: 'last_active', admin: false })).toBe(
      '/api/agents?page=2&rows_per_page=10&search=creator%3Ame+fix&orderBy=last_active',
    );
    expect(agentListUrl({ repository: 'acme/webapp', params, order: 'created_at', admin: true })).toBe(
      '/api/agents/acme/webapp?page=2&rows_per_page=10&search=creator%3Ame+fix&orderBy=created_at&admin=true',
    );
  });
});

describe('withArchived', () => {
  const a = agent({ id: 'a' });
  const b = agent({ id: 'b' });
  const list = { agents: [a, b], count: 12 };

  it('drops the row and lowers the count', () => {
    expect(withArchived(list, 'a', true, false)).toEqual({ agents: [b], count: 11 });
  });

  it('updates the row in place under an is:archived search', () => {
    expect(withArchived(list, 'a', true, true)).toEqual({ agents: [{ ...a, archived: true }, b], count: 12 });
  });

  it('leaves a list without the agent alone', () => {
    expect(withArchived(list, 'zzz', true, false)).toBe(list);
  });
});
