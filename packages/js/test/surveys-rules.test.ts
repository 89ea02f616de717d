import { describe, expect, it } from 'vitest'
import type { Survey } from 'service-js'
import { nextStep, ratingBucket } from '../src/extensions/surveys/branching'
import { answerProperties, eventProperties, interactionProperty } from '../src/extensions/surveys/events'
import { compare, deviceType, propertiesMatch, userRegex } from '../src/extensions/surveys/match'

const survey = (questions: Survey['questions'], extra: Partial<Survey> = {}): Survey => ({
  id: 's1',
  name: 'NPS',
  type: 'popover',
  questions,
  start_date: '2026-01-01T00:00:00Z',
  ...extra,
})

describe('conditions compare as posthog-js compares them', () => {
  it('exact, is_not, icontains (the default), not_icontains, regex, not_regex, gt, lt', () => {
    const url = 'https://app.example.com/billing?plan=Pro'
    expect(compare(['https://app.example.com/billing?plan=Pro'], url, 'exact')).toBe(true)
    expect(compare(['https://app.example.com/billing'], url, 'exact')).toBe(false)
    expect(compare(['https://other.example.com'], url, 'is_not')).toBe(true)
    expect(compare([url], url, 'is_not')).toBe(false)
    expect(compare(['/BILLING'], url)).toBe(true)
    expect(compare(['/settings'], url)).toBe(false)
    expect(compare(['/settings', '/admin'], url, 'not_icontains')).toBe(true)
    expect(compare(['plan=pro'], url, 'not_icontains')).toBe(false)
    expect(compare(['^https://app\\.example\\.com/(billing|settings)'], url, 'regex')).toBe(true)
    expect(compare(['/settings$'], url, 'regex')).toBe(false)
    expect(compare(['/billing'], url, 'not_regex')).toBe(false)
    expect(compare(['/settings'], url, 'not_regex')).toBe(true)
    expect(compare(['10'], '12', 'gt')).toBe(true)
    expect(compare(['10'], '9', 'gt')).toBe(false)
    expect(compare(['10'], '9px', 'lt')).toBe(true)
    expect(compare(['x'], url, 'unknown' as never)).toBe(false)
  })

  it('an invalid regex matches nothing (and so every not_regex), as in posthog-js', () => {
    expect(compare(['(unclosed'], 'anything', 'regex')).toBe(false)
    expect(compare(['(unclosed'], 'anything', 'not_regex')).toBe(true)
  })

  it('refuses the regexes a backtracking engine can hang on, and runs the linear ones', () => {
    for (const p of ['(a+)+$', '(.*)*x', '(a|aa)*b', '^(\\w+\\s?)*$', '((ab)+)+', '(x+x+)+y', '(a)\\1', '(?<n>a)\\k<n>'])
      expect([p, userRegex(p)]).toEqual([p, null])
    for (const p of [
      '^https://app\\.example\\.com/(billing|settings)',
      '/projects/\\d+/dashboard',
      '.*checkout.*',
      '[(]+',
      '\\(a+\\)+',
      '^(?:www\\.)?example\\.com$',
    ])
      expect([p, userRegex(p)]).toEqual([p, expect.any(RegExp)])
    const evil = 'a'.repeat(5000) + '!'
    const started = Date.now()
    expect(compare(['^(a+)+$'], evil, 'regex')).toBe(false)
    expect(compare(['(x+x+)+y'], 'x'.repeat(5000), 'not_regex')).toBe(true)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('event property filters: each must match, a missing or null property never does', () => {
    const condition = {
      name: 'purchase',
      propertyFilters: { plan: { values: ['pro', 'team'], operator: 'exact' as const }, amount: { values: ['100'], operator: 'gt' as const } },
    }
    expect(propertiesMatch(condition, { plan: 'pro', amount: 250 })).toBe(true)
    expect(propertiesMatch(condition, { plan: 'free', amount: 250 })).toBe(false)
    expect(propertiesMatch(condition, { plan: 'pro' })).toBe(false)
    expect(propertiesMatch(condition, { plan: 'pro', amount: null })).toBe(false)
    expect(propertiesMatch({ name: 'purchase' }, {})).toBe(true)
    expect(propertiesMatch(undefined, {})).toBe(false)
  })

  it('device types from the user agent, as posthog-js names them', () => {
    expect(deviceType('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36')).toBe('Desktop')
    expect(deviceType('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148')).toBe('Mobile')
    expect(deviceType('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36')).toBe('Mobile')
    expect(deviceType('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148')).toBe('Tablet')
    expect(deviceType('Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 Chrome/130.0 Safari/537.36')).toBe('Tablet')
    expect(deviceType('Mozilla/5.0 (PlayStation 5 3.20) AppleWebKit/605.1.15')).toBe('Console')
  })
})

describe('branching', () => {
  const s = survey([
    {
      id: 'q0',
      type: 'single_choice',
      question: 'Role?',
      choices: ['Engineer', 'Designer', 'Other'],
      hasOpenChoice: true,
      branching: { type: 'response_based', responseValues: { 0: 2, 2: 'end' } },
    },
    { id: 'q1', type: 'open', question: 'Why?', branching: { type: 'end' } },
    {
      id: 'q2',
      type: 'rating',
      question: 'NPS?',
      display: 'number',
      scale: 10,
      branching: { type: 'response_based', responseValues: { detractors: 3, promoters: 'end' } },
    },
    { id: 'q3', type: 'open', question: 'What went wrong?', branching: { type: 'specific_question', index: 1 } },
    { id: 'q4', type: 'open', question: 'Last' },
  ])

  it('goes to the next question without branching, and ends after the last one', () => {
    const plain = survey([s.questions[4], { ...s.questions[4], id: 'q5' }])
    expect(nextStep(plain, 0, 'x')).toBe(1)
    expect(nextStep(plain, 1, 'x')).toBe('end')
  })

  it('follows end, specific_question and response_based (choice index, open choice last, rating bucket)', () => {
    expect(nextStep(s, 1, 'because')).toBe('end')
    expect(nextStep(s, 3, 'it broke')).toBe(1)
    expect(nextStep(s, 0, 'Engineer')).toBe(2)
    expect(nextStep(s, 0, 'Designer')).toBe(1) // no branch for this choice: the next question
    expect(nextStep(s, 0, 'a free-text answer')).toBe('end') // the open choice is the last one
    expect(nextStep(s, 2, 3)).toBe(3)
    expect(nextStep(s, 2, 10)).toBe('end')
    expect(nextStep(s, 2, 7)).toBe(3) // passives: no branch, the next question
  })

  it('never branches to a question that does not exist', () => {
    const broken = survey([
      { id: 'a', type: 'open', question: 'A', branching: { type: 'specific_question', index: 9 } },
      { id: 'b', type: 'open', question: 'B' },
    ])
    expect(nextStep(broken, 0, 'x')).toBe(1)
  })

  it('rating buckets per scale', () => {
    expect([1, 2].map((v) => ratingBucket(v, 2))).toEqual(['positive', 'negative'])
    expect([1, 2, 3].map((v) => ratingBucket(v, 3))).toEqual(['negative', 'neutral', 'positive'])
    expect([1, 2, 3, 4, 5].map((v) => ratingBucket(v, 5))).toEqual(['negative', 'negative', 'neutral', 'positive', 'positive'])
    expect([1, 3, 4, 5, 7].map((v) => ratingBucket(v, 7))).toEqual(['negative', 'negative', 'neutral', 'positive', 'positive'])
    expect([0, 6, 7, 8, 9, 10].map((v) => ratingBucket(v, 10))).toEqual(['detractors', 'detractors', 'passives', 'passives', 'promoters', 'promoters'])
  })
})

describe('event properties', () => {
  const s = survey(
    [
      { id: 'qa', type: 'rating', question: 'How likely?', display: 'number', scale: 10 },
      { id: 'qb', type: 'open', question: 'Why?' },
      { id: 'qc', type: 'multiple_choice', question: 'Which?', choices: ['x', 'y'] },
    ],
    { current_iteration: 2, current_iteration_start_date: '2026-02-01T00:00:00Z' },
  )

  it('answers by question id, by the question’s place (the keys older reports read), and as $survey_questions', () => {
    expect(answerProperties(s, { $survey_response_qa: 9, $survey_response_qc: ['x', 'y'] })).toEqual({
      $survey_response_qa: 9,
      $survey_response_qc: ['x', 'y'],
      $survey_response: 9,
      $survey_response_2: ['x', 'y'],
      $survey_questions: [
        { id: 'qa', question: 'How likely?', response: 9 },
        { id: 'qb', question: 'Why?', response: undefined },
        { id: 'qc', question: 'Which?', response: ['x', 'y'] },
      ],
    })
  })

  it('sent: the submission and whether it is complete, and $set of $survey_responded/<id>/<iteration>', () => {
    const props = eventProperties('survey sent', s, { id: 'sub-1', responses: { $survey_response_qa: 3 }, completed: false })
    expect(props).toMatchObject({
      $survey_id: 's1',
      $survey_name: 'NPS',
      $survey_iteration: 2,
      $survey_iteration_start_date: '2026-02-01T00:00:00Z',
      $survey_submission_id: 'sub-1',
      $survey_completed: false,
      $survey_response_qa: 3,
      $survey_response: 3,
      $set: { '$survey_responded/s1/2': true },
    })
    expect(props).not.toHaveProperty('$survey_partially_completed')
  })

  it('dismissed and abandoned say whether it was partly answered; shown says only which survey', () => {
    expect(eventProperties('survey dismissed', s, { id: 'sub-2', responses: { $survey_response_qb: 'slow' } })).toMatchObject({
      $survey_partially_completed: true,
      $survey_submission_id: 'sub-2',
      $set: { '$survey_dismissed/s1/2': true },
    })
    const abandoned = eventProperties('survey abandoned', s, { id: 'sub-3', responses: {} })
    expect(abandoned).toMatchObject({ $survey_partially_completed: false, $survey_submission_id: 'sub-3' })
    expect(abandoned).not.toHaveProperty('$set')
    expect(eventProperties('survey shown', s)).toEqual({
      $survey_id: 's1',
      $survey_name: 'NPS',
      $survey_iteration: 2,
      $survey_iteration_start_date: '2026-02-01T00:00:00Z',
    })
  })

  it('the person property of an interaction has no iteration suffix before the first iteration', () => {
    expect(interactionProperty({ ...s, current_iteration: null }, 'responded')).toBe('$survey_responded/s1')
    expect(interactionProperty({ ...s, current_iteration: 0 }, 'dismissed')).toBe('$survey_dismissed/s1')
    expect(interactionProperty(s, 'dismissed')).toBe('$survey_dismissed/s1/2')
  })
})
