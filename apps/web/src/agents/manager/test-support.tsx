import { MODEL_CATALOG, type AgentMetadata, type ClientConfig, type User } from '@tandem/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { currentUserKey } from '../../auth/current-user';

/** Test helpers for the manager's component tests (not shipped: only tests import this). */
export const bob: User = {
  user_id: 'u2',
  username: 'bob',
  email: null,
  admin: false,
  installations: [{ id: 1000, name: 'acme', avatar_url: null, role: 'member' }],
  repositories: ['acme/api', 'acme/webapp'],
  active_installation_id: 1000,
};

export function agent(overrides: Partial<AgentMetadata> = {}): AgentMetadata {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    title: 'Fix the login',
    status: 'completed',
    repo_name: 'acme/webapp',
    installation_id: 1000,
    sources: {},
    is_own: true,
    model: 'sonnet-4-5',
    review_model: null,
    summarization_limit: 150000,
    cur_tokens: 0,
    credits_spent: 0,
    agent_type: 'editor',
    archived: false,
    cur_ports: [],
    base_branch: null,
    has_unread: false,
    creator_username: 'bob',
    created_at: '2026-01-01T00:00:00.000Z',
    last_active: '2026-01-02T00:00:00.000Z',
    sub_agents: [],
    supervisor: null,
    ...overrides,
  };
}

/** GET /api/config of a local deployment: no billing, not winding down, unless overridden. */
export function clientConfig(overrides: Partial<ClientConfig> = {}): ClientConfig {
  return {
    product_name: 'Tandem',
    code_host_url: 'http://localhost:8081',
    install_url: 'http://localhost:8081/apps/tandem/installations/new',
    app_slug: 'tandem',
    site: {
      discord_url: null,
      support_email: 'support@tandem.local',
      social_links: [],
      landing_claim: null,
      cloud_host: 'x',
      model_providers: [],
    },
    sunset: null,
    billing: null,
    ...overrides,
  };
}

export const modelList = {
  models: MODEL_CATALOG.filter((m) => !m.admin_only).map((m) => ({
    ...m,
    available: true,
    unavailable_reason: null,
  })),
  default_model: 'sonnet-4-5',
  default_review_model: 'gpt-5-medium',
};

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** Stubs fetch: `handle` answers each call as [status, body]; every call is recorded. */
export function stubApi(handle: (call: Call) => [number, unknown]) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const call = {
        method: init?.method ?? 'GET',
        url,
        body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined,
      };
      calls.push(call);
      const [status, body] = handle(call);
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return calls;
}

function Location() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** Renders `ui` signed in as `user`, at `path`, with the current location in [data-testid=location]. */
/** `/agents?x=1` → its pathname and search, as a router entry takes them. */
function pathOf(path: string | undefined) {
  if (!path) return {};
  const [pathname = '/agents', search] = path.split('?');
  return { pathname, search: search ? `?${search}` : '' };
}

export function renderSignedIn(ui: ReactNode, options: { user?: User; path?: string; state?: unknown } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserKey, options.user ?? bob);
  const view = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[{ pathname: '/agents', ...pathOf(options.path), state: options.state }]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                {ui}
                <Location />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { client, view };
}
