import { PARTY_LEAD_MESSAGE, PARTY_OFF_MESSAGE, STORAGE_KEYS } from '@tandem/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUserKey } from '../auth/current-user';
import { resetLeadForTests } from '../tracking/lead';
import PartyPage from './PartyPage';
import { useSendPartyMessage } from './use-send-party-message';
import { WhatsThisDialog } from './WhatsThisDialog';

interface Call {
  method: string;
  url: string;
  body: string;
}

function stubFetch(answer: (call: Call) => [number, unknown]) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const call = { method: init?.method ?? 'GET', url, body: String(init?.body ?? '') };
      calls.push(call);
      const [status, body] = answer(call);
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return calls;
}

function wrapper(client = new QueryClient()) {
  client.setQueryData(currentUserKey, null);
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/party']}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
}

beforeEach(() => {
  localStorage.clear();
  resetLeadForTests();
});
afterEach(() => vi.unstubAllGlobals());

describe('PartyPage', () => {
  it('says clearly when the deployment has no party agent', async () => {
    stubFetch(() => [404, { detail: PARTY_OFF_MESSAGE, code: 'not_found' }]);
    render(<PartyPage />, { wrapper: wrapper() });
    expect(await screen.findByRole('heading', { name: 'No party agent on this deployment' })).toBeTruthy();
    expect(screen.getByText(PARTY_OFF_MESSAGE)).toBeTruthy();
  });

  it("shows 'Error: {message}' when the party agent cannot be loaded", async () => {
    stubFetch(() => [
      503,
      {
        detail: 'The party repository acme/api is not installed on this deployment yet.',
        code: 'unavailable',
      },
    ]);
    render(<PartyPage />, { wrapper: wrapper() });
    expect(
      await screen.findByText(
        'Error: The party repository acme/api is not installed on this deployment yet.',
      ),
    ).toBeTruthy();
  });
});

describe("the What's this? dialog", () => {
  it('offers visitors a login, and remembers it was seen', () => {
    const onClose = vi.fn();
    render(<WhatsThisDialog open onClose={onClose} signedIn={false} repoName="acme/api" />, {
      wrapper: wrapper(),
    });
    expect(screen.getByRole('link', { name: 'Login with Github' }).getAttribute('href')).toBe(
      '/login?returnUrl=%2Fparty',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(onClose).toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.partyAgentWhatsThis)).toBe('true');
  });

  it('has no login prompt for signed-in people', () => {
    render(<WhatsThisDialog open onClose={() => undefined} signedIn repoName="acme/api" />, {
      wrapper: wrapper(),
    });
    expect(screen.queryByRole('link', { name: 'Login with Github' })).toBeNull();
  });
});

describe('sending a party message', () => {
  const LEAD = '11111111-2222-4333-8444-555555555555';
  const FRESH = '99999999-2222-4333-8444-555555555555';

  it('makes a lead when none is stored and sends with it', async () => {
    const calls = stubFetch((call) =>
      call.url === '/api/track-visit' ? [200, { lead_id: LEAD }] : [200, { event_uuid: 'e1' }],
    );
    const onLead = vi.fn();
    const { result } = renderHook(() => useSendPartyMessage({ signedIn: false, onLead }), {
      wrapper: wrapper(),
    });
    await act(async () => {
      await result.current.mutateAsync('hi');
    });
    expect(calls.map((c) => c.url)).toEqual(['/api/track-visit', '/api/party/message']);
    expect(JSON.parse(calls[1]!.body)).toEqual({ message: 'hi', images: [], comments: [], lead_id: LEAD });
    expect(localStorage.getItem(STORAGE_KEYS.leadId)).toBe(LEAD);
    expect(onLead).toHaveBeenLastCalledWith(LEAD);
  });

  it("asks for a new lead once when the stored one is not this browser's", async () => {
    localStorage.setItem(STORAGE_KEYS.leadId, LEAD);
    let refused = false;
    const calls = stubFetch((call) => {
      if (call.url === '/api/track-visit') return [200, { lead_id: FRESH }];
      if (!refused) {
        refused = true;
        return [403, { detail: PARTY_LEAD_MESSAGE, code: 'forbidden' }];
      }
      return [200, { event_uuid: 'e2' }];
    });
    const { result } = renderHook(() => useSendPartyMessage({ signedIn: false, onLead: () => undefined }), {
      wrapper: wrapper(),
    });
    await act(async () => {
      expect(await result.current.mutateAsync('again')).toEqual({ event_uuid: 'e2' });
    });
    expect(calls.map((c) => c.url)).toEqual(['/api/party/message', '/api/track-visit', '/api/party/message']);
    expect(JSON.parse(calls[2]!.body).lead_id).toBe(FRESH);
  });

  it('sends no lead for a signed-in sender', async () => {
    const calls = stubFetch(() => [200, { event_uuid: 'e3' }]);
    const { result } = renderHook(() => useSendPartyMessage({ signedIn: true, onLead: () => undefined }), {
      wrapper: wrapper(),
    });
    await act(async () => {
      await result.current.mutateAsync('me');
    });
    expect(calls).toHaveLength(1);
    expect(JSON.parse(calls[0]!.body).lead_id).toBeNull();
  });
});
