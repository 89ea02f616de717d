import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/client';
import { cohortKeys } from '../src/features/cohorts/api';
import { toCohortDraft } from '../src/features/cohorts/cohort-draft';
import { CohortForm } from '../src/features/cohorts/cohort-form';
import { eventKeys } from '../src/features/events/api';
import { flagKeys } from '../src/features/flags/api';
import { personKeys } from '../src/features/persons/api';
import { renderPage } from './render';

// The cohort form: a static cohort from pasted ids, a dynamic one from criteria (events done, a flag's variant, another
// cohort), what is sent, and why nothing is.
const projectId = 7;
const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

type OnSave = (body: Record<string, unknown>, ids?: unknown) => Promise<void>;
async function cohortForm(onSave: OnSave) {
  await renderPage(
    () => <CohortForm projectId={projectId} initial={toCohortDraft()} onSave={onSave} />,
    [
      [personKeys.propertyNames(projectId), { results: ['email', 'plan'] }],
      [eventKeys.names(projectId), { results: ['purchase', 'signup'] }],
      [cohortKeys.all(projectId), page([{ id: 3, name: 'Churned', is_static: true, deleted: false }])],
      [flagKeys.all(projectId), page([{ id: 1, key: 'checkout', filters: { multivariate: { variants: [{ key: 'control' }, { key: 'test' }] } } }])],
    ],
  );
}

const fill = (control: HTMLElement, text: string) => fireEvent.change(control, { target: { value: text } });
/** Picks an option of the nth Mantine Select of that name. */
function choose(name: string, option: string, nth = 0) {
  const select = screen.getAllByRole('combobox', { name })[nth]!;
  fireEvent.click(select);
  const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '')!;
  fireEvent.click(within(listbox).getByRole('option', { name: option }));
}
const create = () => fireEvent.click(screen.getByRole('button', { name: 'Create cohort' }));

describe('the cohort form', () => {
  it('creates a static cohort from pasted ids, each once', async () => {
    const onSave = vi.fn<OnSave>(async () => undefined);
    await cohortForm(onSave);
    fill(screen.getByRole('textbox', { name: 'Name' }), 'VIPs');
    fireEvent.click(screen.getByRole('radio', { name: 'A list of distinct IDs' }));
    expect(screen.queryByRole('group', { name: 'Group 1' })).toBeNull();
    fill(screen.getByRole('textbox', { name: 'Distinct IDs' }), 'ada\ngrace, ada\n\nlin');
    await screen.findByText(/3 distinct IDs/);
    create();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]).toEqual([{ name: 'VIPs', description: '', is_static: true }, { ids: ['ada', 'grace', 'lin'] }]);
  });

  it('creates a dynamic cohort of people who bought twice in a week, or got the test variant of a flag, and are not in another cohort', async () => {
    const onSave = vi.fn<OnSave>(async () => undefined);
    await cohortForm(onSave);
    fill(screen.getByRole('textbox', { name: 'Name' }), 'Engaged');
    choose('Criterion', 'Did an event');
    fill(screen.getByRole('combobox', { name: 'Event' }), 'purchase');
    fill(screen.getByRole('textbox', { name: 'At least (times)' }), '2');
    fill(screen.getByRole('textbox', { name: 'In the last (days)' }), '7');
    fireEvent.click(screen.getByRole('button', { name: 'Add a group (or)' }));
    choose('Criterion', 'Got a flag variant', 1);
    choose('Flag', 'checkout');
    choose('Variant', 'test');
    fireEvent.click(within(screen.getByRole('group', { name: 'Group 2' })).getByRole('button', { name: 'Add criterion' }));
    choose('Criterion', 'Is in a cohort', 2);
    choose('Operator', 'is not in');
    choose('Cohort', 'Churned');
    create();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    const behavioral = { type: 'behavioral', value: 'performed_event', event_type: 'events', operator: 'gte', time_interval: 'day' };
    expect(onSave.mock.calls[0]).toEqual([
      {
        name: 'Engaged',
        description: '',
        filters: {
          properties: {
            type: 'OR',
            values: [
              { type: 'AND', values: [{ ...behavioral, key: 'purchase', operator_value: 2, time_value: 7 }] },
              {
                type: 'AND',
                values: [
                  {
                    ...behavioral,
                    key: '$feature_flag_called',
                    operator_value: 1,
                    time_value: 30,
                    event_filters: [
                      { key: '$feature_flag', type: 'event', operator: 'exact', value: 'checkout' },
                      { key: '$feature_flag_response', type: 'event', operator: 'exact', value: 'test' },
                    ],
                  },
                  { key: 'id', type: 'cohort', value: 3, operator: 'not_in' },
                ],
              },
            ],
          },
        },
      },
      undefined,
    ]);
    // Many controls in jsdom: slow on a shared machine.
  }, 60_000);

  it('names what is missing next to it and sends nothing; an API error lands next to its field', async () => {
    const onSave = vi.fn<OnSave>(async () => {
      throw new ApiError(400, 'validation_error', 'invalid_cohort', 'Cohort 3 does not exist in this project (or is deleted).', 'filters');
    });
    await cohortForm(onSave);
    create();
    await screen.findByText('Name the cohort.');
    expect(screen.getByText('Name the property this filter reads.')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
    fill(screen.getByRole('textbox', { name: 'Name' }), 'Pro');
    fill(screen.getByRole('combobox', { name: 'Property' }), 'plan');
    choose('Operator', 'contains');
    fill(screen.getByRole('textbox', { name: 'Value' }), 'pro');
    create();
    await screen.findByText('Cohort 3 does not exist in this project (or is deleted).');
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]![0].filters).toEqual({
      properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'plan', type: 'person', operator: 'icontains', value: 'pro' }] }] },
    });
  });
});
