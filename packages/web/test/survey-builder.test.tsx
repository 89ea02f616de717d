import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/client';
import { earlyAccessKeys } from '../src/features/early-access/api';
import { eventKeys } from '../src/features/events/api';
import { flagKeys } from '../src/features/flags/api';
import { personKeys } from '../src/features/persons/api';
import { SurveyBuilder } from '../src/features/surveys/survey-builder';
import { emptyDraft, newQuestion, type SurveyDraft } from '../src/features/surveys/survey-draft';
import { fromTemplate } from '../src/features/surveys/templates';
import { renderPage } from './render';

// The survey builder: what it sends for what is typed and chosen (questions, branching, server-side events), the
// errors it finds itself and those the API names, each on its field.
const projectId = 7;
const empty = { count: 0, next: null, previous: null, results: [] };

type OnSave = (body: Record<string, unknown>, launch: boolean) => Promise<unknown>;

async function builder(initial: SurveyDraft, onSave: OnSave) {
  await renderPage(
    () => <SurveyBuilder projectId={projectId} initial={initial} onSave={onSave} />,
    [
      [personKeys.propertyNames(projectId), { results: ['plan', 'email'] }],
      [earlyAccessKeys.list(projectId), empty],
      [eventKeys.names(projectId), { results: ['purchase', 'invoice_paid'] }],
      [flagKeys.all(projectId), empty],
    ],
  );
}

const fill = (control: HTMLElement, text: string) => fireEvent.change(control, { target: { value: text } });
/** Picks an option of a Mantine Select by its text. */
function choose(select: HTMLElement, option: string) {
  fireEvent.click(select);
  const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '')!;
  fireEvent.click(within(listbox).getByRole('option', { name: option }));
}
const saveDraft = () => fireEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
const sent = (onSave: ReturnType<typeof vi.fn>) => onSave.mock.calls[0]![0] as Record<string, unknown> & { questions: Record<string, unknown>[] };
const question = (n: number) => screen.getByRole('region', { name: `Question ${n}` });

describe('the survey builder', () => {
  it('sends the questions typed, each of its type: a rating with its scale, a single choice with an open last choice', async () => {
    const onSave = vi.fn<OnSave>(async () => undefined);
    await builder(emptyDraft(), onSave);
    fill(screen.getByRole('textbox', { name: 'Name' }), 'Onboarding');
    const first = question(1);
    choose(within(first).getByRole('combobox', { name: 'Question type' }), 'Rating');
    fill(within(first).getByRole('textbox', { name: 'Question' }), 'How easy was it to get started?');
    choose(within(first).getByRole('combobox', { name: 'Scale' }), '1 to 7');
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    const second = question(2);
    choose(within(second).getByRole('combobox', { name: 'Question type' }), 'Single choice');
    fill(within(second).getByRole('textbox', { name: 'Question' }), 'Where did you hear of us?');
    fill(within(second).getByRole('textbox', { name: 'Choice 1' }), 'A friend');
    fill(within(second).getByRole('textbox', { name: 'Choice 2' }), 'Other');
    fireEvent.click(within(second).getByRole('checkbox', { name: 'The last choice lets people write their own answer' }));
    saveDraft();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![1]).toBe(false);
    expect(sent(onSave).questions).toEqual([
      expect.objectContaining({ type: 'rating', question: 'How easy was it to get started?', scale: 7, display: 'number' }),
      {
        type: 'single_choice',
        question: 'Where did you hear of us?',
        description: '',
        optional: false,
        buttonText: 'Submit',
        choices: ['A friend', 'Other'],
        hasOpenChoice: true,
        shuffleOptions: false,
      },
    ]);
    expect(sent(onSave).questions[0]).not.toHaveProperty('choices');
  });

  it('branches by answer: a choice that ends the survey is sent by its index', async () => {
    const onSave = vi.fn<OnSave>(async () => undefined);
    const draft = {
      ...emptyDraft(),
      name: 'Churn',
      questions: [
        newQuestion('single_choice', { question: 'Will you stay?', choices: ['Yes', 'No'] }),
        newQuestion('open', { question: 'Why not?' }),
        newQuestion('open', { question: 'Anything else?' }),
      ],
    };
    await builder(draft, onSave);
    const first = question(1);
    choose(within(first).getByRole('combobox', { name: 'After this question' }), 'Depends on the answer');
    choose(within(first).getByRole('combobox', { name: 'If the answer is "Yes"' }), 'End the survey');
    choose(within(first).getByRole('combobox', { name: 'If the answer is "No"' }), 'Question 3: Anything else?');
    // The second question goes straight to the end.
    fireEvent.click(screen.getByRole('button', { name: /^Edit question 2 Why not\?/ }));
    choose(within(question(2)).getByRole('combobox', { name: 'After this question' }), 'End the survey');
    saveDraft();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(sent(onSave).questions.map((q) => q.branching)).toEqual([
      { type: 'response_based', responseValues: { '0': 'end', '1': 2 } },
      { type: 'end' },
      undefined,
    ]);
  });

  it('marks an event captured on the server with server_side', async () => {
    const onSave = vi.fn<OnSave>(async () => undefined);
    await builder({ ...emptyDraft(), name: 'Billing', questions: [newQuestion('open', { question: 'How was billing?' })] }, onSave);
    fireEvent.click(screen.getByRole('button', { name: 'Add event' }));
    const event = screen.getByRole('group', { name: 'Event 1' });
    fill(within(event).getByRole('combobox', { name: 'Event name' }), 'invoice_paid');
    fireEvent.click(within(event).getByRole('checkbox', { name: 'Captured on the server' }));
    saveDraft();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(sent(onSave).conditions).toEqual({ events: { repeatedActivation: false, values: [{ name: 'invoice_paid', server_side: true }] } });
  });

  it('shows its own errors on their fields, opening the question that has one, and sends nothing', async () => {
    const onSave = vi.fn<OnSave>(async () => undefined);
    await builder({ ...emptyDraft(), questions: [newQuestion('open', { question: 'Fine?' }), newQuestion('multiple_choice', { question: 'Which?' })] }, onSave);
    // Question 2 is closed: its error opens it.
    expect(screen.queryByRole('region', { name: 'Question 2' })).toBeNull();
    saveDraft();
    await screen.findByText('Give at least two choices, none of them empty.');
    expect(within(question(2)).getByText('Give at least two choices, none of them empty.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).getAttribute('aria-invalid')).toBe('true');
    expect(onSave).not.toHaveBeenCalled();
  });

  it("shows the API's error on the field its attr names, or on its question when the builder has no such field", async () => {
    const onSave = vi.fn<OnSave>(async () => {
      throw new ApiError(400, 'validation_error', 'invalid_input', 'A question needs its text.', 'questions__1__question');
    });
    await builder(fromTemplate('nps'), onSave);
    saveDraft();
    const error = await screen.findByText('A question needs its text.');
    // Question 2 was closed: the error opened it.
    expect(question(2).contains(error)).toBe(true);

    // A rating question edits no choices: "choices on a rating question" is said on the question.
    onSave.mockRejectedValueOnce(new ApiError(400, 'validation_error', 'invalid_input', 'A rating question takes no choices.', 'questions__0__choices'));
    saveDraft();
    const stray = await screen.findByText('A rating question takes no choices.');
    expect(question(1).contains(stray)).toBe(true);
    expect(stray.closest('[role="alert"]')).toBeTruthy();
  });

  it('"Save and launch" asks to launch once saved', async () => {
    const onSave = vi.fn<OnSave>(async () => undefined);
    await builder(fromTemplate('csat'), onSave);
    fireEvent.click(screen.getByRole('button', { name: 'Save and launch' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![1]).toBe(true);
    expect(sent(onSave).questions[0]).toMatchObject({ display: 'emoji', branching: { type: 'response_based', responseValues: { positive: 'end' } } });
  });

  it('draws the open question in the preview, and the preview picks another', async () => {
    await builder(fromTemplate('nps'), async () => undefined);
    const preview = screen.getByRole('region', { name: 'Preview of the survey' });
    // The renderer draws into a shadow tree of its own element, in the preview's host.
    const shown = () => preview.querySelector('.survey-preview-host svc-survey')?.shadowRoot?.textContent ?? '';
    await waitFor(() => expect(shown()).toContain('How likely are you to recommend us'));
    fireEvent.click(screen.getByRole('button', { name: 'Preview question 2' }));
    await waitFor(() => expect(shown()).toContain('What is the main reason for your score?'));
    expect(screen.getByRole('region', { name: 'Question 2' })).toBeTruthy();
  });
});
