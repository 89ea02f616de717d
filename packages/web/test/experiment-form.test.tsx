import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FeatureFlag, Page } from '../src/api/types';
import { eventKeys } from '../src/features/events/api';
import { ExperimentForm } from '../src/features/experiments/experiment-form';
import { flagKeys } from '../src/features/flags/api';
import { renderPage } from './render';

// Setting up an experiment: the form starts from an existing flag's variants and split, checks the split, and
// launching at once on an existing flag lists what changes on it and saves nothing until confirmed.
const projectId = 7;
const checkout: FeatureFlag = {
  id: 12,
  team_id: projectId,
  name: '',
  key: 'checkout',
  filters: {
    groups: [{ properties: [], rollout_percentage: 100, variant: null }],
    multivariate: {
      variants: [
        { key: 'control', rollout_percentage: 34 },
        { key: 'one-page', rollout_percentage: 33 },
        { key: 'two-page', rollout_percentage: 33 },
      ],
    },
  },
  deleted: false,
  active: false,
  ensure_experience_continuity: false,
  version: 3,
  created_at: '2026-01-05T10:00:00Z',
};
const page = <T,>(results: T[]): Page<T> => ({ count: results.length, next: null, previous: null, results });

async function experimentForm(url: string, onSave: (body: Record<string, unknown>) => Promise<void>) {
  await renderPage(
    () => <ExperimentForm onSave={onSave} />,
    [
      [flagKeys.multivariant(projectId), page([checkout])],
      [eventKeys.names(projectId), { results: ['purchase', 'signed_up'] }],
    ],
    { path: '/project/$projectId/experiments/new', url },
  );
}

const fill = (control: HTMLElement, text: string) => fireEvent.change(control, { target: { value: text } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create experiment' }));
const share = (i: number) => screen.getByRole('textbox', { name: `Variant ${i} share (%)` }) as HTMLInputElement;

describe('the experiment form', () => {
  it("starts from the flag of ?flag=: its variants and split, and saves the experiment on that flag's key", async () => {
    const onSave = vi.fn(async (_body: Record<string, unknown>) => undefined);
    await experimentForm(`/project/${projectId}/experiments/new?flag=12`, onSave);
    expect(screen.getByRole('textbox', { name: 'Variant 2 key' })).toHaveProperty('value', 'one-page');
    expect([share(1).value, share(2).value, share(3).value]).toEqual(['34', '33', '33']);
    fill(screen.getByRole('textbox', { name: 'Name' }), 'One-page checkout');
    fill(screen.getByRole('combobox', { name: 'Event' }), 'purchase');
    submit();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toEqual({
      name: 'One-page checkout',
      description: '',
      feature_flag_key: 'checkout',
      variants: [
        { key: 'control', rollout_percentage: 34 },
        { key: 'one-page', rollout_percentage: 33 },
        { key: 'two-page', rollout_percentage: 33 },
      ],
      metrics: [{ kind: 'conversion', event: 'purchase', window_days: 14 }],
    });
  });

  it('says so when the split does not add up to 100 %, and saves nothing', async () => {
    const onSave = vi.fn(async (_body: Record<string, unknown>) => undefined);
    await experimentForm(`/project/${projectId}/experiments/new`, onSave);
    fill(screen.getByRole('textbox', { name: 'Name' }), 'New checkout');
    fill(share(1), '60');
    fill(screen.getByRole('combobox', { name: 'Event' }), 'purchase');
    submit();
    await screen.findByText('The split must add up to 100 % (it adds up to 110 %).');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('launching at once on an existing flag lists what changes on it, and saves only once confirmed', async () => {
    const onSave = vi.fn(async (_body: Record<string, unknown>) => undefined);
    await experimentForm(`/project/${projectId}/experiments/new?flag=12`, onSave);
    fill(screen.getByRole('textbox', { name: 'Name' }), 'One-page checkout');
    fill(screen.getByRole('combobox', { name: 'Event' }), 'purchase');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Launch now' }));
    submit();
    const changes = await screen.findByRole('table', { name: 'Changes to the flag checkout' });
    expect(within(changes).getByText('Off: nobody gets a variant')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Create and launch' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({ feature_flag_key: 'checkout', status: 'running' });
  });
});
