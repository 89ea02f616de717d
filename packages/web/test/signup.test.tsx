import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AccountForm } from '../src/features/auth/signup-page';
import { renderPage } from './render';

const fill = (control: HTMLElement, text: string) => fireEvent.change(control, { target: { value: text } });
const errorOf = (control: HTMLElement) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id))
    .find((el) => el?.className.includes('error'))?.textContent ?? null;

describe('the sign-up form', () => {
  it('says an email is not one before sending anything, and sends a good one', async () => {
    const onSubmit = vi.fn(async () => undefined);
    await renderPage(() => <AccountForm submitLabel="Create account" onSubmit={onSubmit} />);
    const email = screen.getByRole('textbox', { name: 'Email' });
    fill(email, 'ada@example');
    fill(screen.getByLabelText(/^Password/, { selector: 'input' }), 'correct horse battery');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(errorOf(email)).toBe('This is not an email address: it looks like ada@example.com.'));
    expect(onSubmit).not.toHaveBeenCalled();

    fill(email, 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ email: 'ada@example.com' })));
  });
});
