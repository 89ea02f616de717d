import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Person } from '../src/api/types';
import { PersonProperties } from '../src/features/persons/person-page';
import { personLabel } from '../src/features/persons/persons-page';
import { renderPage } from './render';

const person = (properties: Record<string, unknown>, distinct_ids = ['user-1']): Person => ({
  id: '0190d2a4-6f7b-7cc1-8a3e-3b1f0c2d4e5f',
  distinct_ids,
  properties,
  is_identified: true,
  created_at: '2026-01-01T00:00:00Z',
});

describe('people', () => {
  it('are named by their email, else their name, else their first distinct id', () => {
    expect(personLabel(person({ email: 'ada@example.com', name: 'Ada' }))).toBe('ada@example.com');
    expect(personLabel(person({ email: '  ', name: 'Ada' }))).toBe('Ada');
    expect(personLabel(person({ email: null, name: 42 }, ['anon-1', 'user-1']))).toBe('anon-1');
  });

  it("list a person's properties without those set to null, which are named below", async () => {
    await renderPage(() => <PersonProperties properties={{ email: 'ada@example.com', phone: null, plan: 'pro', company: null }} />);
    const table = screen.getByRole('table', { name: 'Person properties' });
    expect(within(table).queryByText('phone')).toBeNull();
    expect(within(table).getByText('plan')).toBeTruthy();
    expect(screen.getByText('Without a value (not shown): company, phone')).toBeTruthy();
  });
});
