import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cliCallbackUrl, cliConfigCommand, cliConfigFile } from './CliAuthSuccessPage';
import { COPIED_TOOLTIP_MS, CopyBlock } from './CopyBlock';

describe('CopyBlock', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("copies the text and shows 'Copied' for 1.5 s", async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<CopyBlock label="config file" text="hello" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy config file' }));
    });
    expect(writeText).toHaveBeenCalledWith('hello');
    expect(screen.getByRole('status').textContent).toBe('Copied');
    act(() => vi.advanceTimersByTime(COPIED_TOOLTIP_MS - 1));
    expect(screen.getByRole('status').textContent).toBe('Copied');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toBe('');
  });
});

describe('CLI config', () => {
  it('writes the URL and token into the config file and the command', () => {
    expect(JSON.parse(cliConfigFile('http://localhost:8080', 'tok'))).toEqual({
      url: 'http://localhost:8080',
      token: 'tok',
    });
    const command = cliConfigCommand('http://localhost:8080', 'tok');
    expect(command.startsWith('mkdir -p ~/.config/tandem && cat > ~/.config/tandem/config.json')).toBe(true);
    expect(command).toContain('"token": "tok"');
  });
});

describe('the tandem login callback', () => {
  const state = 'a'.repeat(32);
  it('points at 127.0.0.1 with the state and token', () => {
    expect(cliCallbackUrl('49152', state, 'tok en')).toBe(
      `http://127.0.0.1:49152/callback?state=${state}&token=tok+en`,
    );
  });
  it('is null without a well-formed port and state', () => {
    expect(cliCallbackUrl(null, state, 't')).toBeNull();
    expect(cliCallbackUrl('80', state, 't')).toBeNull();
    expect(cliCallbackUrl('70000', state, 't')).toBeNull();
    expect(cliCallbackUrl('49152@evil.example', state, 't')).toBeNull();
    expect(cliCallbackUrl('49152', 'short', 't')).toBeNull();
    expect(cliCallbackUrl('49152', null, 't')).toBeNull();
  });
});
