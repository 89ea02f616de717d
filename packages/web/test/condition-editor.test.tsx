import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toDraft } from '../src/features/flags/flag-draft';
import { FlagForm } from '../src/features/flags/flag-form';
import { cohortKeys } from '../src/features/cohorts/api';
import { personKeys } from '../src/features/persons/api';
import { renderPage } from './render';

// The condition editor of the flag form: filters on person properties, the value control each operator needs, and
// what is sent (or why nothing is).
const projectId = 7;

const cohorts = [
  { id: 12, name: 'Beta testers' },
  { id: 15, name: 'Churned' },
];

async function conditionEditor(onSave: (body: Record<string, unknown>) => Promise<void>, initial = { ...toDraft(), key: 'beta-banner' }) {
  await renderPage(
    () => <FlagForm projectId={projectId} initial={initial} onSave={onSave} />,
    [
      [personKeys.propertyNames(projectId), { results: ['email', 'plan'] }],
      [personKeys.groupTypes(projectId), { results: [] }],
      [cohortKeys.all(projectId), { count: 2, next: null, previous: null, results: cohorts }],
    ],
  );
  fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
}

const fill = (control: HTMLElement, text: string) => fireEvent.change(control, { target: { value: text } });
/** Picks an option of a Mantine Select by its text. */
function choose(name: string, option: string) {
  const select = screen.getByRole('combobox', { name });
  fireEvent.click(select);
  const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '')!;
  fireEvent.click(within(listbox).getByRole('option', { name: option }));
}
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const propertiesSent = (onSave: ReturnType<typeof vi.fn>) =>
  ((onSave.mock.calls[0]![0] as { filters: { groups: { properties: unknown[] }[] } }).filters.groups[0]!.properties as unknown[]) ?? [];

describe('the condition editor', () => {
  it('sends a filter on a person property with the operator and value chosen', async () => {
    const onSave = vi.fn(async (_body: Record<string, unknown>) => undefined);
    await conditionEditor(onSave);
    fill(screen.getByRole('combobox', { name: 'Property' }), 'email');
    choose('Operator', 'contains');
    fill(screen.getByRole('textbox', { name: 'Value' }), '@example.com');
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(propertiesSent(onSave)).toEqual([{ key: 'email', type: 'person', operator: 'icontains', value: '@example.com' }]);
  });

  it('asks for the value each operator needs: a list for "equals", none for "is set"', async () => {
    await conditionEditor(async () => undefined);
    expect(screen.getAllByLabelText('Values').length).toBeGreaterThan(0);
    choose('Operator', 'is set');
    expect(screen.queryAllByLabelText('Values')).toEqual([]);
    expect(screen.queryByRole('textbox', { name: 'Value' })).toBeNull();
    choose('Operator', 'version >');
    expect(screen.getByRole('textbox', { name: 'Value' }).getAttribute('placeholder')).toBe('1.2.0');
  });

  it('a filter without a value is named, and nothing is sent; removing it sends the condition without filters', async () => {
    const onSave = vi.fn(async (_body: Record<string, unknown>) => undefined);
    await conditionEditor(onSave);
    fill(screen.getByRole('combobox', { name: 'Property' }), 'plan');
    save();
    await screen.findByText('Enter a value to compare with.');
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Remove filter' }));
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(propertiesSent(onSave)).toEqual([]);
  });

  it('targets a cohort of the project: picked by name, in or not in, sent as a cohort filter', async () => {
    const onSave = vi.fn(async (_body: Record<string, unknown>) => undefined);
    await conditionEditor(onSave);
    choose('Of', 'Cohort');
    expect(screen.queryByRole('combobox', { name: 'Property' })).toBeNull();
    save();
    await screen.findByText('Pick a cohort.');
    expect(onSave).not.toHaveBeenCalled();
    choose('Cohort', 'Churned');
    choose('Operator', 'is not in');
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(propertiesSent(onSave)).toEqual([{ key: 'id', type: 'cohort', value: 15, operator: 'not_in' }]);
  });

  it("shows a saved flag's cohort filter by the cohort's name, and one it cannot find by its id", async () => {
    const initial = toDraft({
      id: 1,
      team_id: projectId,
      key: 'beta-banner',
      name: '',
      active: true,
      deleted: false,
      version: 1,
      ensure_experience_continuity: false,
      created_at: '2026-01-01T00:00:00Z',
      filters: {
        groups: [
          {
            properties: [
              { key: 'id', type: 'cohort', value: 12, operator: 'in' },
              { key: 'id', type: 'cohort', value: 99, operator: 'not_in' },
            ],
            rollout_percentage: 100,
          },
        ],
      },
    });
    await conditionEditor(async () => undefined, initial);
    expect(screen.getAllByRole('combobox', { name: 'Cohort' }).map((c) => (c as HTMLInputElement).value)).toEqual(['Beta testers', 'Cohort 99']);
    // The two cohort filters, then the person filter the editor added.
    expect(screen.getAllByRole('combobox', { name: 'Operator' }).map((c) => (c as HTMLInputElement).value)).toEqual(['is in', 'is not in', 'equals']);
  });
});
