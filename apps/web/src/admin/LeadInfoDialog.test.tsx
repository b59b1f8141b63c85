import { screen, within } from '@testing-library/react';
import type { AdminUser } from '@tandem/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, stubApi } from '../agents/manager/test-support';
import { LeadInfoDialog, leadValue } from './LeadInfoDialog';

const carol: AdminUser = {
  user_id: '7f1c1e6a-3a4b-4c1d-9e2f-0a1b2c3d4e5f',
  username: 'carol',
  email: null,
  admin: false,
  created_at: '2026-11-01T10:00:00.000Z',
  installations: 1,
  agents: 0,
  utm_source: 'newsletter',
};
const url = `/api/admin/user/${carol.user_id}/lead-info`;
const event = (id: string, type: string, data: Record<string, unknown>) => ({
  id,
  lead_id: null,
  user_id: carol.user_id,
  type,
  timestamp: '2026-11-02T09:00:00.000Z',
  data,
});

describe('LeadInfoDialog', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the fields, with keys ending in _at as dates, and recent tracked events', async () => {
    stubApi((call) => {
      if (call.url === url)
        return [
          200,
          {
            user_id: carol.user_id,
            lead_id: 'lead-1',
            fields: { utm_source: 'newsletter', first_seen_at: '2026-11-01T10:00:00.000Z', chat: 'x' },
          },
        ];
      if (call.url === `/api/admin/user-sessions?user_id=${carol.user_id}&rows_per_page=20`)
        return [
          200,
          {
            count: 2,
            events: [
              event('e2', 'scroll', { percent: 40, target: 'window' }),
              event('e1', 'page_view', { path: '/pricing', evil: { nested: true } }),
            ],
          },
        ];
      return [404, { detail: 'unexpected' }];
    });
    renderSignedIn(<LeadInfoDialog user={carol} onClose={() => {}} />);
    const table = await screen.findByRole('table', { name: 'Lead information' });
    const row = (key: string) => within(table).getByRole('rowheader', { name: key }).closest('tr')!;
    expect(within(row('utm_source')).getByRole('cell').textContent).toBe('newsletter');
    expect(within(row('first_seen_at')).getByRole('cell').textContent).toBe(
      new Date('2026-11-01T10:00:00.000Z').toLocaleString(),
    );
    expect(within(row('lead_id')).getByRole('cell').textContent).toBe('lead-1');
    const events = await screen.findByRole('table', { name: 'Recent tracked events' });
    const rows = within(events).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      `${new Date('2026-11-02T09:00:00.000Z').toLocaleString()}scroll40% of window`,
      `${new Date('2026-11-02T09:00:00.000Z').toLocaleString()}page_view/pricing`,
    ]);
  });

  it('says when there is no lead information', async () => {
    stubApi(() => [200, { user_id: carol.user_id, lead_id: null, fields: {} }]);
    renderSignedIn(<LeadInfoDialog user={carol} onClose={() => {}} />);
    expect(await screen.findByText('No lead information available for this user.')).toBeTruthy();
  });

  it('says when the lead information could not be loaded', async () => {
    stubApi(() => [500, { detail: 'boom' }]);
    renderSignedIn(<LeadInfoDialog user={carol} onClose={() => {}} />);
    expect(await screen.findByText('Failed to load lead information')).toBeTruthy();
  });

  it('leaves values of _at keys that are not dates as they were sent', () => {
    expect(leadValue('clicked_at', 'yesterday')).toBe('yesterday');
    expect(leadValue('utm_source', '2026-11-01T10:00:00.000Z')).toBe('2026-11-01T10:00:00.000Z');
  });
});
