import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DemoRequestDialog, RESET_DELAY_MS } from './DemoRequestDialog';

function renderDialog() {
  const onClose = vi.fn();
  const view = render(<DemoRequestDialog open onClose={onClose} />);
  return { onClose, view };
}

const emailField = () => screen.getByRole('textbox', { name: /email/i }) as HTMLInputElement;

describe('DemoRequestDialog', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('validates the email before sending', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Request Demo' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    fireEvent.change(emailField(), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request Demo' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends and shows the success state', async () => {
    localStorage.setItem('lead_id', 'lead-9');
    const fetchMock = vi.fn(async () => new Response('{"success":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    renderDialog();
    fireEvent.change(emailField(), { target: { value: 'cto@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request Demo' }));
    expect(await screen.findByText('Request Submitted!')).toBeTruthy();
    expect(screen.getByText("We'll be in touch within 24 hours")).toBeTruthy();
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      email: 'cto@example.com',
      message: '',
      lead_id: 'lead-9',
    });
  });

  it('shows the error state and goes back to the form on Try Again', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 500 })),
    );
    renderDialog();
    fireEvent.change(emailField(), { target: { value: 'cto@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request Demo' }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(emailField().value).toBe('cto@example.com'));
  });

  it('clears the fields 300 ms after closing', () => {
    vi.useFakeTimers();
    const { onClose } = renderDialog();
    fireEvent.change(emailField(), { target: { value: 'someone@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(RESET_DELAY_MS - 1));
    expect(emailField().value).toBe('someone@example.com');
    act(() => vi.advanceTimersByTime(1));
    expect(emailField().value).toBe('');
  });
});
