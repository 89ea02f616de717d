import { Select, Stack, Text } from '@mantine/core';
import { ratingBuckets } from './labels';
import { branchesByAnswer, type QuestionDraft } from './survey-draft';
import type { Branching } from './types';

/** A question in a picker: "Question 3: What could we do better?". */
export const questionLabel = (q: QuestionDraft, i: number) => `Question ${i + 1}${q.question.trim() ? `: ${q.question.trim()}` : ''}`;

/** The answers a question branches by: its choices (by index), or its rating's buckets. */
export function answersOf(q: QuestionDraft): { key: string; label: string }[] {
  if (q.type === 'rating') return ratingBuckets(q.scale);
  return q.choices.map((c, i) => ({ key: String(i), label: c.trim() || `Choice ${i + 1}` }));
}

/**
 * Where a question leads once answered: the next question (or the end, after the last), the end, a question of choice,
 * or, for a single choice or a rating, a place for each answer. Questions go by index, as posthog-js reads them.
 */
export function BranchingEditor({
  index,
  questions,
  onChange,
  error,
}: {
  index: number;
  questions: QuestionDraft[];
  onChange: (branching: Branching) => void;
  error?: string;
}) {
  const q = questions[index]!;
  const last = index === questions.length - 1;
  // Branching goes forward only: a branch back could loop.
  const others = questions.map((other, i) => ({ value: String(i), label: questionLabel(other, i) })).filter((_, i) => i > index);
  const b = q.branching;
  const kinds = [
    { value: 'next_question', label: last ? 'End the survey (it is the last question)' : 'Go to the next question' },
    { value: 'end', label: 'End the survey' },
    ...(others.length ? [{ value: 'specific_question', label: 'Skip to a later question' }] : []),
    ...(branchesByAnswer(q.type) ? [{ value: 'response_based', label: 'Depends on the answer' }] : []),
  ];
  const setKind = (kind: string | null) => {
    if (kind === 'end') onChange({ type: 'end' });
    else if (kind === 'specific_question') onChange({ type: 'specific_question', index: Number(others[0]?.value ?? index + 1) });
    else if (kind === 'response_based') onChange({ type: 'response_based', responseValues: {} });
    else onChange({ type: 'next_question' });
  };
  const targets = [{ value: 'next', label: last ? 'End the survey' : 'Next question' }, { value: 'end', label: 'End the survey' }, ...others];
  return (
    <Stack gap="xs">
      <Select
        label="After this question"
        data={kinds}
        value={kinds.some((k) => k.value === b.type) ? b.type : 'next_question'}
        onChange={setKind}
        allowDeselect={false}
        w={{ base: '100%', sm: 360 }}
        error={b.type === 'specific_question' || b.type === 'response_based' ? undefined : error}
      />
      {b.type === 'specific_question' && (
        <Select
          label="Question to go to"
          data={others}
          value={String(b.index)}
          onChange={(v) => onChange({ type: 'specific_question', index: Number(v) })}
          allowDeselect={false}
          w={{ base: '100%', sm: 360 }}
          error={error}
        />
      )}
      {b.type === 'response_based' && (
        <Stack gap={6} pl="sm" style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
          {answersOf(q).map((answer) => {
            const to = b.responseValues[answer.key];
            return (
              <Select
                key={answer.key}
                label={`If the answer is "${answer.label}"`}
                data={targets}
                value={to === undefined ? 'next' : String(to)}
                onChange={(v) => {
                  const responseValues = { ...b.responseValues };
                  if (!v || v === 'next') delete responseValues[answer.key];
                  else responseValues[answer.key] = v === 'end' ? 'end' : Number(v);
                  onChange({ type: 'response_based', responseValues });
                }}
                allowDeselect={false}
                w={{ base: '100%', sm: 360 }}
                size="xs"
              />
            );
          })}
          {q.type !== 'rating' && q.choices.length === 0 && (
            <Text size="xs" c="dimmed">
              Add choices first: each can lead somewhere else.
            </Text>
          )}
          {error && (
            <Text size="xs" c="red" role="alert">
              {error}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
