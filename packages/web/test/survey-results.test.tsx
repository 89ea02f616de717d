import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { flagKeys } from '../src/features/flags/api';
import { personKeys } from '../src/features/persons/api';
import { ANSWERS_PAGE, surveyKeys } from '../src/features/surveys/api';
import { SurveyResultsPanel } from '../src/features/surveys/survey-results';
import { fromDraft } from '../src/features/surveys/survey-draft';
import { fromTemplate } from '../src/features/surveys/templates';
import type { Survey, SurveyResults } from '../src/features/surveys/types';
import { renderPage } from './render';

// A survey's results as the API gives them, read on the page: counts and rate, NPS with its groups, each rating
// value, each choice (written-in ones marked), written answers with their person, paged; late responses said.
const projectId = 7;
const surveyId = 'srv-1';
const body = fromDraft({ ...fromTemplate('nps'), name: 'Checkout NPS' }).body!;
const survey = {
  ...body,
  id: surveyId,
  status: 'running',
  questions: [
    { ...(body.questions as object[])[0], id: 'q-score' },
    { id: 'q-channel', type: 'single_choice', question: 'Where did you hear of us?', choices: ['A friend', 'Search', 'Other'], hasOpenChoice: true },
    { ...(body.questions as object[])[1], id: 'q-why' },
  ],
} as unknown as Survey;

const answer = (i: number) => ({
  value: `Reason number ${i}`,
  distinct_id: `user-${i}`,
  person_id: `person-${i}`,
  timestamp: `2026-11-2${i % 10}T10:00:00Z`,
  submission_id: `sub-${i}`,
});

const results: SurveyResults = {
  survey_id: surveyId,
  counts: { shown: 40, dismissed: 6, sent: 20, abandoned: 3, partial: 2 },
  response_rate: 0.5,
  late_responses: 2,
  by_day: [],
  questions: [
    {
      id: 'q-score',
      index: 0,
      type: 'rating',
      question: 'How likely are you to recommend us to a friend or colleague?',
      responses: 20,
      ratings: Array.from({ length: 11 }, (_, value) => ({ value, count: value === 10 ? 8 : value === 8 ? 6 : value === 3 ? 6 : 0 })),
      nps: { promoters: 8, passives: 6, detractors: 6, score: 10 },
    },
    {
      id: 'q-channel',
      index: 1,
      type: 'single_choice',
      question: 'Where did you hear of us?',
      responses: 12,
      choices: [
        { value: 'Search', count: 3 },
        { value: 'A friend', count: 7 },
        { value: 'A podcast', count: 2 },
      ],
      answers: { results: [{ ...answer(0), value: 'A podcast' }], count: 2, next_offset: null },
    },
    {
      id: 'q-why',
      index: 2,
      type: 'open',
      question: 'What is the main reason for your score?',
      responses: 14,
      answers: { results: Array.from({ length: ANSWERS_PAGE }, (_, i) => answer(i)), count: 14, next_offset: ANSWERS_PAGE },
    },
  ],
};
const secondPage: SurveyResults = {
  ...results,
  questions: results.questions.map((q) => (q.id === 'q-why' ? { ...q, answers: { results: [10, 11, 12, 13].map(answer), count: 14, next_offset: null } } : q)),
};

async function resultsPage() {
  await renderPage(
    () => <SurveyResultsPanel projectId={projectId} survey={survey} />,
    [
      [surveyKeys.resultsBy(projectId, surveyId, {}), results],
      [surveyKeys.resultsBy(projectId, surveyId, {}, { question: 'q-why', offset: ANSWERS_PAGE }), secondPage],
      [personKeys.propertyNames(projectId), { results: ['plan'] }],
      [flagKeys.all(projectId), { count: 0, next: null, previous: null, results: [] }],
    ],
  );
}

describe('the results of a survey', () => {
  it('shows the counts, the response rate, and that some responses came late', async () => {
    await resultsPage();
    const stat = (label: string) => screen.getByText(label, { selector: 'p' }).parentElement!.textContent;
    expect(stat('Shown')).toContain('40');
    expect(stat('Responses')).toContain('20');
    expect(stat('Responses')).toContain('and 2 partial');
    expect(stat('Response rate')).toContain('50 %');
    expect(stat('Dismissed')).toContain('6');
    expect(screen.getByText(/2 responses arrived after the survey ended/)).toBeTruthy();
  });

  it('shows the NPS and its groups, and every value of the scale, zeros included', async () => {
    await resultsPage();
    expect(screen.getByLabelText('Net Promoter Score 10').textContent).toBe('+10');
    expect(screen.getByText(/Promoters \(9–10\)/).textContent).toBe('Promoters (9–10): 8 (40 %)');
    expect(screen.getByText(/Detractors \(0–6\)/).textContent).toBe('Detractors (0–6): 6 (30 %)');
    const ratings = within(screen.getByRole('list', { name: /^Ratings of/ })).getAllByRole('listitem');
    expect(ratings.map((r) => r.getAttribute('aria-label'))).toEqual([
      '0: 0 (0 %)',
      '1: 0 (0 %)',
      '2: 0 (0 %)',
      '3: 6 (30 %)',
      '4: 0 (0 %)',
      '5: 0 (0 %)',
      '6: 0 (0 %)',
      '7: 0 (0 %)',
      '8: 6 (30 %)',
      '9: 0 (0 %)',
      '10: 8 (40 %)',
    ]);
    expect(screen.getByText('Mean 7.3 over 20 ratings')).toBeTruthy();
  });

  it('shows the choices most chosen first, marking an answer people wrote themselves', async () => {
    await resultsPage();
    const choices = within(screen.getByRole('list', { name: 'Choices of "Where did you hear of us?"' })).getAllByRole('listitem');
    expect(choices.map((c) => c.getAttribute('aria-label'))).toEqual(['A friend: 7 (58 %)', 'Search: 3 (25 %)', 'A podcast: 2 (17 %), written in']);
  });

  it('lists written answers with a link to their person, a page at a time', async () => {
    await resultsPage();
    const table = screen.getByRole('table', { name: 'Answers to "What is the main reason for your score?"' });
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(rows()).toHaveLength(ANSWERS_PAGE);
    const link = within(rows()[0]!).getByRole('link', { name: 'user-0' });
    expect(link.getAttribute('href')).toBe(`/project/${projectId}/persons/user-0`);
    fireEvent.click(screen.getByRole('button', { name: 'Older answers to question 3' }));
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(within(rows()[0]!).getByText('Reason number 10')).toBeTruthy();
    expect(screen.getByText('11–14 of 14')).toBeTruthy();
  });
});
