import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FeatureFlag } from '../src/api/types';
import { toDraft } from '../src/features/flags/flag-draft';
import { FlagForm } from '../src/features/flags/flag-form';
import { renderPage } from './render';

const projectId = 7;
const flag: FeatureFlag = {
  id: 3,
  team_id: projectId,
  name: '',
  key: 'team-billing',
  filters: { aggregation_group_type_index: 1, groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"a":1}' } },
  deleted: false,
  active: true,
  ensure_experience_continuity: false,
  version: 1,
  created_at: '2026-01-05T10:00:00Z',
};

/** The flag form of a project whose persons have these property names and whose group types are company (0) and team (1). */
async function flagForm(initial = toDraft(), onSave: (body: Record<string, unknown>) => Promise<void> = async () => undefined) {
  await renderPage(
    () => <FlagForm projectId={projectId} initial={initial} onSave={onSave} />,
    [
      [['person_property_names', projectId], { results: ['$feature_enrollment/beta', 'email', 'plan'] }],
      [
        ['group_types', projectId],
        {
          results: [
            { group_type_index: 0, group_type: 'company' },
            { group_type_index: 1, group_type: 'team' },
          ],
        },
      ],
    ],
  );
}

const fill = (control: HTMLElement, text: string) => fireEvent.change(control, { target: { value: text } });
const optionsOf = (combobox: HTMLElement) => {
  fireEvent.click(combobox);
  return within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((o) => o.textContent);
};

describe('the feature flag form', () => {
  it('starts a new flag off, and sends it off unless turned on', async () => {
    const onSave = vi.fn(async () => undefined);
    await flagForm(toDraft(), onSave);
    expect((screen.getByRole('switch', { name: /^Active/ }) as HTMLInputElement).checked).toBe(false);
    fill(screen.getByRole('textbox', { name: 'Key' }), 'new-flag');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ key: 'new-flag', active: false })));
  });

  it('keeps an existing flag on as it is', async () => {
    await flagForm(toDraft(flag));
    expect((screen.getByRole('switch', { name: /^Active/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('suggests the names of the project’s person properties, its own before the SDKs’', async () => {
    await flagForm();
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    const property = screen.getByRole('combobox', { name: 'Property' });
    fireEvent.focus(property);
    expect(optionsOf(property)).toEqual(['email', 'plan', '$feature_enrollment/beta']);
  });

  it('names group types, not indexes, in "Match by"', async () => {
    await flagForm(toDraft(flag));
    const matchBy = screen.getByRole('combobox', { name: 'Match by' });
    expect((matchBy as HTMLInputElement).value).toBe('Groups: team');
    expect(optionsOf(matchBy)).toEqual(['Users', 'Groups: company', 'Groups: team']);
  });

  it('leaves the payload as typed when it loses the focus (no reformatting)', async () => {
    await flagForm();
    const payload = screen.getByRole('textbox', { name: 'Payload when true (JSON, optional)' });
    fill(payload, '{"discount":10,   "code": "A"}');
    fireEvent.blur(payload);
    expect((payload as HTMLTextAreaElement).value).toBe('{"discount":10,   "code": "A"}');
  });
});
