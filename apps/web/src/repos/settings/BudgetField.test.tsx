import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BudgetField } from './BudgetField';

describe('BudgetField', () => {
  const setup = () => {
    const onConfirm = vi.fn();
    render(<BudgetField cents={1500} onConfirm={onConfirm} />);
    return { onConfirm, input: screen.getByRole('textbox', { name: 'Agent budget (¢)' }) };
  };

  it('shows a confirm button while editing and confirms with Enter', () => {
    const { onConfirm, input } = setup();
    expect(screen.queryByRole('button', { name: 'Confirm budget' })).toBeNull();
    fireEvent.change(input, { target: { value: '250' } });
    expect(screen.getByRole('button', { name: 'Confirm budget' })).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onConfirm).toHaveBeenCalledWith(250);
  });

  it("says 'Minimum 10' or 'Maximum 100000' and sends nothing out of range", () => {
    const { onConfirm, input } = setup();
    fireEvent.change(input, { target: { value: '9' } });
    expect(screen.getByText('Minimum 10')).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: '100001' } });
    expect(screen.getByText('Maximum 100000')).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('cancels on Escape and on blur', () => {
    const { onConfirm, input } = setup();
    fireEvent.change(input, { target: { value: '40' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect((input as HTMLInputElement).value).toBe('1500');
    fireEvent.change(input, { target: { value: '40' } });
    fireEvent.blur(input);
    expect((input as HTMLInputElement).value).toBe('1500');
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
