import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ThemeModeProvider, useThemeMode } from './ThemeModeProvider';

function ModeProbe() {
  const { mode, toggle } = useThemeMode();
  return (
    <button type="button" onClick={toggle}>
      mode:{mode}
    </button>
  );
}

describe('ThemeModeProvider', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it('reads the stored mode on mount', () => {
    localStorage.setItem('theme', 'dark');
    render(
      <ThemeModeProvider>
        <ModeProbe />
      </ThemeModeProvider>,
    );
    expect(screen.getByRole('button').textContent).toBe('mode:dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('Alt+T flips the mode and stores it', () => {
    localStorage.setItem('theme', 'light');
    render(
      <ThemeModeProvider>
        <ModeProbe />
      </ThemeModeProvider>,
    );
    act(() => {
      fireEvent.keyDown(window, { key: '†', code: 'KeyT', altKey: true });
    });
    expect(screen.getByRole('button').textContent).toBe('mode:dark');
    expect(localStorage.getItem('theme')).toBe('dark');

    act(() => {
      fireEvent.keyDown(window, { key: 't', code: 'KeyT', altKey: false });
      fireEvent.keyDown(window, { key: '†', code: 'KeyT', altKey: true, repeat: true });
    });
    expect(screen.getByRole('button').textContent).toBe('mode:dark');

    fireEvent.click(screen.getByRole('button'));
    expect(localStorage.getItem('theme')).toBe('light');
  });
});
