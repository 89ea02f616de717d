import type { EarlyAccessFeature } from '../../api/types';
import { emptyDraft, newQuestion, type SurveyDraft } from './survey-draft';

export type TemplateId = 'nps' | 'csat' | 'open' | 'beta' | 'blank';

export const TEMPLATES: { id: TemplateId; title: string; description: string }[] = [
  {
    id: 'nps',
    title: 'Net Promoter Score',
    description: 'How likely people are to recommend you, from 0 to 10, and why. Gives a score from −100 to 100.',
  },
  {
    id: 'csat',
    title: 'Customer satisfaction',
    description: 'How satisfied people are, on five faces; only the unhappy ones are asked what to improve.',
  },
  { id: 'open', title: 'Open feedback', description: 'A feedback tab on the side of your app: people write to you whenever they like.' },
  {
    id: 'beta',
    title: 'Beta feedback',
    description: 'Ask the people in an early access program what they think of the feature, and only them.',
  },
  { id: 'blank', title: 'From scratch', description: 'One open question, and every setting yours to choose.' },
];

/** A new survey's draft from a template; the beta feedback template needs the early access feature it asks about. */
export function fromTemplate(id: string | undefined, feature?: EarlyAccessFeature): SurveyDraft {
  const draft = emptyDraft();
  switch (id) {
    case 'nps':
      return {
        ...draft,
        name: 'Net Promoter Score',
        questions: [
          newQuestion('rating', {
            question: 'How likely are you to recommend us to a friend or colleague?',
            scale: 10,
            display: 'number',
            lowerBoundLabel: 'Not at all likely',
            upperBoundLabel: 'Extremely likely',
          }),
          newQuestion('open', { question: 'What is the main reason for your score?', optional: true }),
        ],
        // Asked again twice a year, so the score can be followed over time.
        schedule: 'recurring',
        iterationCount: 4,
        iterationFrequencyDays: 180,
        waitDays: 14,
      };
    case 'csat':
      return {
        ...draft,
        name: 'Customer satisfaction',
        questions: [
          newQuestion('rating', {
            question: 'How satisfied are you with the product?',
            scale: 5,
            display: 'emoji',
            lowerBoundLabel: 'Very dissatisfied',
            upperBoundLabel: 'Very satisfied',
            // Happy people are done; the others are asked what to improve.
            branching: { type: 'response_based', responseValues: { positive: 'end' } },
          }),
          newQuestion('open', { question: 'What could we do better?', optional: true }),
        ],
        waitDays: 14,
      };
    case 'open':
      return {
        ...draft,
        name: 'Open feedback',
        type: 'widget',
        questions: [newQuestion('open', { question: 'What can we do to make the product better for you?', buttonText: 'Send' })],
        appearance: { ...draft.appearance, widgetType: 'tab', widgetLabel: 'Feedback', placeholder: 'Tell us anything…' },
        schedule: 'always',
      };
    case 'beta': {
      const name = feature?.name ?? 'the beta';
      return {
        ...draft,
        name: feature ? `${feature.name} beta feedback` : 'Beta feedback',
        description: feature ? `Feedback from the people in the early access program of ${feature.name}.` : '',
        questions: [
          newQuestion('rating', {
            question: `How useful is ${name} for you?`,
            scale: 5,
            display: 'number',
            lowerBoundLabel: 'Not useful',
            upperBoundLabel: 'Very useful',
          }),
          newQuestion('single_choice', {
            question: `How would you feel if you could no longer use ${name}?`,
            choices: ['Very disappointed', 'Somewhat disappointed', 'Not disappointed'],
          }),
          newQuestion('open', { question: `What would make ${name} better?`, optional: true }),
        ],
        // Only the people who opted in get the feature's flag, so only they are asked.
        linkedFlagKey: feature?.feature_flag?.key ?? null,
        linkedEarlyAccessFeatureId: feature?.id ?? null,
        waitDays: 7,
      };
    }
    default:
      return draft;
  }
}
