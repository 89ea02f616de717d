import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/client';
import type { EarlyAccessFeature, FeatureFlag, Page } from '../src/api/types';
import { FeatureForm } from '../src/features/early-access/feature-form';
import { renderPage } from './render';

const projectId = 7;
const flag = (id: number, key: string, filters: FeatureFlag['filters'] = { groups: [] }): FeatureFlag => ({
  id,
  team_id: projectId,
  name: '',
  key,
  filters,
  deleted: false,
  active: true,
  ensure_experience_continuity: false,
  version: 1,
  created_at: '2026-01-05T10:00:00Z',
});
const page = <T,>(results: T[]): Page<T> => ({ count: results.length, next: null, previous: null, results });
const flags = [
  flag(1, 'free-flag'),
  flag(2, 'linked-flag'),
  flag(3, 'pricing-test', { groups: [], multivariate: { variants: [{ key: 'control', rollout_percentage: 100 }] } }),
  flag(4, 'left-by-a-deleted-feature'),
];
const features: EarlyAccessFeature[] = [
  {
    id: '5f0c6a57-8f7e-4c55-9d47-8a4fbc0e2a11',
    feature_flag: flags[1]!,
    name: 'Dark mode',
    description: '',
    stage: 'beta',
    documentation_url: '',
    created_at: '2026-01-01T00:00:00Z',
    payload: null,
  },
];

/** The new-feature form over a project with the flags and features above; `onSave` is what the page would do. */
async function newFeatureForm(onSave: (body: Record<string, unknown>) => Promise<void> = async () => undefined) {
  await renderPage(
    () => <FeatureForm projectId={projectId} onSave={onSave} />,
    [
      [['feature_flags', projectId, 'all'], page(flags)],
      [['early_access', projectId], page(features)],
    ],
  );
}

/** Types into a control (the whole text at once: jsdom is slow at Mantine's key-by-key renders). */
const fill = (control: HTMLElement, text: string) => fireEvent.change(control, { target: { value: text } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

/** The error message shown for a form control (Mantine links it with aria-describedby). */
const errorOf = (control: HTMLElement) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id))
    .find((el) => el?.className.includes('error'))?.textContent ?? null;

describe('the early access feature form', () => {
  it('offers only the flags a feature can be linked to: not linked to another feature, without variants', async () => {
    await newFeatureForm();
    fireEvent.click(screen.getByRole('combobox', { name: 'Feature flag' }));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Create a new flag named after the feature', 'free-flag', 'left-by-a-deleted-feature']);
  });

  it('says at once that a payload of valid JSON that is not an object cannot be saved, and sends nothing', async () => {
    const onSave = vi.fn(async () => undefined);
    await newFeatureForm(onSave);
    fill(screen.getByRole('textbox', { name: 'Name' }), 'Offline mode');
    const payload = screen.getByRole('textbox', { name: 'Payload (JSON object, optional)' });
    fill(payload, '[1, 2]');
    fireEvent.blur(payload);
    expect(errorOf(payload)).toBe('The payload must be a JSON object, like {"beta_banner": true}.');
    save();
    await waitFor(() => expect(errorOf(payload)).toBe('The payload must be a JSON object, like {"beta_banner": true}.'));
    expect(onSave).not.toHaveBeenCalled();

    fill(payload, '{"beta_banner": true}');
    save();
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ name: 'Offline mode', payload: { beta_banner: true }, feature_flag_id: null })),
    );
  });

  it("takes a field's error away as soon as the field is changed", async () => {
    await newFeatureForm();
    const name = screen.getByRole('textbox', { name: 'Name' });
    save();
    await waitFor(() => expect(errorOf(name)).toBe('Give the feature a name your users will understand.'));
    fill(name, 'D');
    expect(errorOf(name)).toBeNull();
    expect(name.getAttribute('aria-invalid')).not.toBe('true');
  });

  it("shows the service's error on the field it names, until that field is changed", async () => {
    const detail = 'The name "Dark mode" makes the flag key dark-mode, and there is already a feature flag dark-mode (id 9).';
    await newFeatureForm(async () => {
      throw new ApiError(400, 'validation_error', 'unique', detail, 'name');
    });
    const name = screen.getByRole('textbox', { name: 'Name' });
    fill(name, 'Dark mode');
    save();
    await waitFor(() => expect(errorOf(name)).toBe(detail));
    fill(name, 'Dark mode!');
    expect(errorOf(name)).toBeNull();
  });
});
