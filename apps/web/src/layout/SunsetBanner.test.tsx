import { screen } from '@testing-library/react';
import type { ClientConfig } from '@tandem/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../agents/workspace/Composer';
import { OutOfCreditsNotice } from '../agents/OutOfCreditsNotice';
import { clientConfig, renderSignedIn, stubApi } from '../agents/manager/test-support';
import { SunsetBanner } from './SunsetBanner';

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const md = (d: string) => `${Number(d.slice(5, 7))}/${Number(d.slice(8, 10))}`;

const config = (sunset: ClientConfig['sunset']) => clientConfig({ sunset });

const serve = (sunset: ClientConfig['sunset']) =>
  stubApi((call) => (call.url === '/api/config' ? [200, config(sunset)] : [404, { detail: 'unexpected' }]));

const sunset = (lastDay: string) => ({
  last_day: lastDay,
  shutdown_day: day(30),
  credits_buyable: false,
  refund_note: 'Unused credits will be refunded.',
});

describe('sunset mode in the web app', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows nothing when the deployment is not winding down', async () => {
    const calls = serve(null);
    renderSignedIn(<SunsetBanner />);
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(screen.queryByRole('status', { name: 'Shutdown notice' })).toBeNull();
  });

  it('shows the banner with the configured days to signed-in users', async () => {
    serve(sunset(day(3)));
    renderSignedIn(<SunsetBanner />);
    const banner = await screen.findByRole('status', { name: 'Shutdown notice' });
    expect(banner.textContent).toContain('Tandem is shutting down. Credits can no longer be bought.');
    expect(banner.textContent).toContain(`New agents can be made until ${md(day(3))}.`);
    expect(banner.textContent).toContain(`The site goes down on ${md(day(30))}.`);
  });

  it('has a shutdown out-of-credits notice without the buying link', async () => {
    serve(sunset(day(3)));
    renderSignedIn(<OutOfCreditsNotice />);
    expect(
      await screen.findByText(/Tandem is shutting down: no more credits can be bought, and existing credits/),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Buy more now' })).toBeNull();
  });

  it('disables the message input with the refund notice after the last day', async () => {
    serve(sunset(day(-1)));
    renderSignedIn(<Composer agentId="a1" onSend={() => Promise.resolve()} />);
    expect(
      await screen.findByText(
        'Tandem is shutting down: agents can no longer be messaged. Unused credits will be refunded.',
      ),
    ).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
  });
});
