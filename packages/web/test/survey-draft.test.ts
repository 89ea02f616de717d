// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { EarlyAccessFeature } from '../src/api/types';
import {
  emptyDraft,
  fromDraft,
  moveQuestion,
  newQuestion,
  removeChoice,
  removeQuestion,
  surveyFieldOf,
  toDraft,
  type QuestionDraft,
} from '../src/features/surveys/survey-draft';
import { fromTemplate, TEMPLATES } from '../src/features/surveys/templates';
import type { Survey } from '../src/features/surveys/types';

// The survey builder's draft: a survey read from the API becomes a draft and goes back as the same body, a draft's
// mistakes are named by field, branching follows its questions when they move, and the API's `attr` finds its field.
const stored: Survey = {
  id: '0190a3c5-1111-7000-8000-000000000001',
  name: 'Checkout NPS',
  description: 'After a purchase',
  type: 'popover',
  questions: [
    {
      id: 'q-rating',
      type: 'rating',
      question: 'How likely are you to recommend us?',
      description: '',
      descriptionContentType: 'text',
      optional: false,
      buttonText: 'Next',
      display: 'number',
      scale: 10,
      lowerBoundLabel: 'Unlikely',
      upperBoundLabel: 'Very likely',
      branching: { type: 'response_based', responseValues: { promoters: 2 } },
    },
    {
      id: 'q-why',
      type: 'single_choice',
      question: 'What held you back?',
      description: 'Pick one',
      descriptionContentType: 'text',
      // Fields the builder does not edit go back as they came.
      translations: { fr: { question: "Qu'est-ce qui vous a retenu ?" } },
      skipSubmitButton: true,
      optional: true,
      buttonText: 'Submit',
      choices: ['Price', 'Speed', 'Other'],
      hasOpenChoice: true,
      shuffleOptions: true,
      branching: { type: 'end' },
    },
    { id: 'q-more', type: 'open', question: 'Anything else?', description: '', descriptionContentType: 'html', optional: true, buttonText: 'Send' },
  ],
  appearance: { backgroundColor: '#fff', position: 'left', thankYouMessageHeader: 'Thanks!', displayThankYouMessage: true, fontFamily: 'Inter' },
  conditions: {
    url: '/checkout/done',
    urlMatchType: 'icontains',
    selector: '#receipt',
    events: {
      repeatedActivation: true,
      values: [
        { name: 'purchase', propertyFilters: { plan: { values: ['pro'], operator: 'exact' } } },
        { name: 'invoice_paid', server_side: true },
      ],
    },
    deviceTypes: ['Desktop'],
    deviceTypesMatchType: 'icontains',
    seenSurveyWaitPeriodInDays: 14,
    linkedFlagVariant: 'test',
    cancelEvents: { values: [{ name: 'refund' }] },
  },
  linked_flag_key: 'new-checkout',
  targeting_flag_key: 'survey-targeting-0190a3c5',
  internal_targeting_flag_key: 'survey-targeting-0190a3c5-custom',
  targeting_flag: { id: 31, key: 'survey-targeting-0190a3c5', active: false, filters: {} },
  internal_targeting_flag: { id: 32, key: 'survey-targeting-0190a3c5-custom', active: false, filters: {} },
  targeting_flag_filters: { groups: [{ properties: [{ key: 'country', type: 'person', operator: 'exact', value: ['DE', 'FR'] }], rollout_percentage: 50 }] },
  start_date: null,
  end_date: null,
  responses_limit: 500,
  schedule: 'recurring',
  iteration_count: 3,
  iteration_frequency_days: 90,
  current_iteration: null,
  current_iteration_start_date: null,
  enable_partial_responses: true,
  archived: false,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
  created_by: null,
  status: 'draft',
  linked_early_access_feature_id: null,
};

describe('a survey draft', () => {
  it('sends back what it read: questions with their ids (and fields it does not edit), conditions (cancel events kept), targeting, schedule', () => {
    const { body, errors } = fromDraft(toDraft(stored));
    expect(errors).toBeUndefined();
    expect(body).toEqual({
      name: 'Checkout NPS',
      description: 'After a purchase',
      type: 'popover',
      questions: stored.questions,
      appearance: expect.objectContaining({ backgroundColor: '#fff', position: 'left', thankYouMessageHeader: 'Thanks!', fontFamily: 'Inter' }),
      conditions: stored.conditions,
      linked_flag_key: 'new-checkout',
      targeting_flag_filters: stored.targeting_flag_filters,
      schedule: 'recurring',
      iteration_count: 3,
      iteration_frequency_days: 90,
      responses_limit: 500,
      enable_partial_responses: true,
    });
  });

  it('sends the early access feature it asks about, and null to unlink one', () => {
    const linked = { ...toDraft(stored), linkedEarlyAccessFeatureId: 'eaf-1' };
    expect(fromDraft(linked).body).toMatchObject({ linked_early_access_feature_id: 'eaf-1' });
    expect(fromDraft({ ...linked, linkedEarlyAccessFeatureId: null }, linked).body).toMatchObject({ linked_early_access_feature_id: null });
  });

  it('sends no conditions and no targeting when none is set, and no rounds unless recurring', () => {
    const { body } = fromDraft({ ...emptyDraft(), name: 'Feedback', questions: [newQuestion('open', { question: 'Hi?' })] });
    expect(body).toMatchObject({ conditions: null, targeting_flag_filters: null, linked_flag_key: null, iteration_count: null, responses_limit: null });
    expect((body!.questions as object[])[0]).toEqual({ type: 'open', question: 'Hi?', description: '', optional: false, buttonText: 'Submit' });
  });

  it('names what is missing by field: the name, a question without text, too few choices, a branch to nowhere, a bad regex', () => {
    const d = emptyDraft();
    d.questions = [
      newQuestion('open', { question: ' ' }),
      newQuestion('single_choice', { question: 'Which?', choices: ['Yes', ''] }),
      newQuestion('rating', { question: 'Rate', branching: { type: 'specific_question', index: 5 } }),
      newQuestion('multiple_choice', { question: 'Which ones?', choices: ['A', 'A'] }),
    ];
    Object.assign(d, { url: '(unclosed', urlMatchType: 'regex', responsesLimit: 0, schedule: 'recurring', iterationCount: '' });
    d.targeting = [
      { filters: [{ key: 'plan', type: 'person', group_type_index: '0', operator: 'exact', values: [], value: '' }], rollout: 100, variant: null },
    ];
    expect(fromDraft(d).errors).toEqual({
      name: expect.stringContaining('name'),
      'questions.0.question': 'Write the question people will read.',
      'questions.1.choices': 'Give at least two choices, none of them empty.',
      'questions.2.branching': 'Choose a later question to go to.',
      'questions.3.choices': 'Each choice must be different.',
      'conditions.url': 'Not a valid regular expression.',
      responses_limit: 'A whole number of responses, 1 or more.',
      iteration_count: 'How many times to ask: 1 or more.',
      'targeting.filter-0-0': 'Enter a value to compare with.',
    });
  });

  it('sends a server-side event with server_side: true and its property filters', () => {
    const d = { ...emptyDraft(), name: 'After invoice', questions: [newQuestion('open', { question: 'How was billing?' })] };
    d.events = [{ name: 'invoice_paid', serverSide: true, filters: [{ key: 'amount', operator: 'gt', values: ['100'] }] }];
    expect(fromDraft(d).body!.conditions).toEqual({
      events: {
        repeatedActivation: false,
        values: [{ name: 'invoice_paid', server_side: true, propertyFilters: { amount: { operator: 'gt', values: ['100'] } } }],
      },
    });
  });

  it('every template but the blank one gives a survey the API can take', () => {
    const feature = { id: 'eaf-1', name: 'AI summaries', stage: 'beta', feature_flag: { key: 'ai-summaries' } } as EarlyAccessFeature;
    for (const t of TEMPLATES.filter((x) => x.id !== 'blank')) expect(fromDraft(fromTemplate(t.id, feature)).errors, t.id).toBeUndefined();
    expect(fromDraft(fromTemplate('beta', feature)).body).toMatchObject({
      name: 'AI summaries beta feedback',
      linked_flag_key: 'ai-summaries',
      linked_early_access_feature_id: 'eaf-1',
    });
    expect(fromDraft(fromTemplate('nps')).body!.questions).toEqual([
      expect.objectContaining({ type: 'rating', scale: 10 }),
      expect.objectContaining({ type: 'open', optional: true }),
    ]);
  });
});

describe('branching when questions move', () => {
  const q = (question: string, branching: QuestionDraft['branching'] = { type: 'next_question' }) => newQuestion('single_choice', { question, branching });
  const branchesOf = (questions: QuestionDraft[]) => questions.map((x) => [x.question, x.branching]);

  it('removing a question: a branch to it goes on to the next question, branches past it shift down', () => {
    const questions = [
      q('A', { type: 'response_based', responseValues: { '0': 1, '1': 3, '2': 'end' } }),
      q('B', { type: 'specific_question', index: 3 }),
      q('C', { type: 'specific_question', index: 3 }),
      q('D'),
    ];
    expect(branchesOf(removeQuestion(questions, 1))).toEqual([
      ['A', { type: 'response_based', responseValues: { '1': 2, '2': 'end' } }],
      ['C', { type: 'specific_question', index: 2 }],
      ['D', { type: 'next_question' }],
    ]);
  });

  it('moving a question: branches follow the questions they named, and one that now points back goes on to the next', () => {
    const questions = [q('A', { type: 'specific_question', index: 2 }), q('B', { type: 'response_based', responseValues: { '0': 2, '1': 'end' } }), q('C')];
    expect(branchesOf(moveQuestion(questions, 2, 0))).toEqual([
      ['C', { type: 'next_question' }],
      ['A', { type: 'next_question' }],
      ['B', { type: 'response_based', responseValues: { '1': 'end' } }],
    ]);
    expect(branchesOf(moveQuestion(questions, 1, 0))).toEqual([
      ['B', { type: 'response_based', responseValues: { '0': 2, '1': 'end' } }],
      ['A', { type: 'specific_question', index: 2 }],
      ['C', { type: 'next_question' }],
    ]);
  });

  it('sends no branching when every answer goes on to the next question', () => {
    const question = q('A', { type: 'response_based', responseValues: {} });
    question.choices = ['x', 'y'];
    expect(fromDraft({ ...emptyDraft(), name: 'S', questions: [question, newQuestion('open', { question: 'B' })] }).body!.questions).toEqual([
      expect.not.objectContaining({ branching: expect.anything() }),
      expect.not.objectContaining({ branching: expect.anything() }),
    ]);
  });

  it('removing a choice: branches by the later choices follow them', () => {
    const question = q('A', { type: 'response_based', responseValues: { '0': 'end', '1': 2, '2': 3 } });
    question.choices = ['x', 'y', 'z'];
    expect(removeChoice(question, 1)).toMatchObject({ choices: ['x', 'z'], branching: { responseValues: { '0': 'end', '1': 3 } } });
  });
});

describe("an API error's field", () => {
  it.each([
    ['questions__2__choices', 'questions.2.choices'],
    ['questions__0__branching__index', 'questions.0.branching'],
    ['questions__1__scale', 'questions.1.scale'],
    ['questions__1', 'questions.1.question'],
    ['questions', 'questions'],
    ['conditions__urlMatchType', 'conditions.url'],
    ['conditions__events__values__0__name', 'conditions.events'],
    ['targeting_flag_filters__groups__0__properties__0__value', 'targeting'],
    ['linked_flag_key', 'linked_flag_key'],
    ['name', 'name'],
    ['something_else', undefined],
  ])('%s → %s', (attr, field) => expect(surveyFieldOf(attr)).toBe(field));
});
