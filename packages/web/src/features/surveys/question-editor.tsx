import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { BranchingEditor } from './branching-editor';
import { Labelled } from './labelled';
import { QUESTION_TYPES, questionTypeLabel, SCALES } from './labels';
import { newQuestion, removeChoice, type QuestionDraft } from './survey-draft';
import type { QuestionType } from './types';

/** What a question's branching does, in a few words, for its summary. */
function branchingSummary(q: QuestionDraft): string | null {
  const b = q.branching;
  if (b.type === 'end') return 'then ends';
  if (b.type === 'specific_question') return `then question ${b.index + 1}`;
  if (b.type === 'response_based' && Object.keys(b.responseValues).length) return 'branches by answer';
  return null;
}

/**
 * One question of the builder. Closed, it is a line (number, type, text) that opens it; open, it edits the question's
 * text and description, the fields of its type (the rating's scale, display and labels; the choices, an open last
 * choice and shuffling; the link), whether it is optional, its button and where it leads.
 */
export function QuestionEditor({
  index,
  questions,
  open,
  onOpen,
  onChange,
  onRemove,
  onMove,
  errors,
}: {
  index: number;
  questions: QuestionDraft[];
  open: boolean;
  onOpen: () => void;
  onChange: (q: QuestionDraft) => void;
  onRemove: () => void;
  onMove: (to: number) => void;
  /** The builder's errors by field: this question's are `questions.<index>.<field>`. */
  errors: Record<string, string>;
}) {
  const q = questions[index]!;
  const at = `questions.${index}`;
  const set = (patch: Partial<QuestionDraft>) => onChange({ ...q, ...patch });
  const errorOf = (field: string) => errors[field];
  const isChoice = q.type === 'single_choice' || q.type === 'multiple_choice';
  const mine = Object.entries(errors).filter(([field]) => field.startsWith(`${at}.`));
  const failed = mine.length > 0;
  // Errors of fields this question's type does not edit (the API's "a rating takes no choices"): said on the question.
  const edited = [
    'question',
    'description',
    'buttonText',
    'branching',
    ...(q.type === 'rating' ? ['scale'] : []),
    ...(isChoice ? ['choices'] : []),
    ...(q.type === 'link' ? ['link'] : []),
  ];
  const stray = mine.filter(([field]) => !edited.includes(field.slice(at.length + 1))).map(([, message]) => message);
  const summary = branchingSummary(q);
  const tools = (
    <Group gap={4} wrap="nowrap">
      <ActionIcon variant="subtle" color="gray" aria-label={`Move question ${index + 1} up`} disabled={index === 0} onClick={() => onMove(index - 1)}>
        ↑
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Move question ${index + 1} down`}
        disabled={index === questions.length - 1}
        onClick={() => onMove(index + 1)}
      >
        ↓
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" aria-label={`Remove question ${index + 1}`} disabled={questions.length <= 1} onClick={onRemove}>
        ✕
      </ActionIcon>
    </Group>
  );

  if (!open)
    return (
      <Card withBorder padding="sm" radius="md" style={failed ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <UnstyledButton onClick={onOpen} style={{ flex: 1, minWidth: 0 }}>
            <Group gap="sm" wrap="nowrap">
              {/* Its name: "Edit question 2 What is… Open text · optional", the visible text whole within it. */}
              <VisuallyHidden>Edit question</VisuallyHidden>
              <Badge variant="light" color="gray" radius="sm" style={{ flexShrink: 0 }}>
                {index + 1}
              </Badge>
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate>
                  {q.question.trim() || 'Untitled question'}
                </Text>
                <Text size="xs" c={failed ? 'red' : 'dimmed'}>
                  {failed ? 'Needs a fix' : [questionTypeLabel(q.type), q.optional ? 'optional' : null, summary].filter(Boolean).join(' · ')}
                </Text>
              </Stack>
            </Group>
          </UnstyledButton>
          {tools}
        </Group>
      </Card>
    );

  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      style={{ borderColor: 'var(--mantine-color-blue-filled)' }}
      component="section"
      aria-label={`Question ${index + 1}`}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm">
            <Badge variant="filled" radius="sm">
              {index + 1}
            </Badge>
            <Select
              aria-label="Question type"
              data={QUESTION_TYPES}
              value={q.type}
              onChange={(v) => {
                const type = (v ?? 'open') as QuestionType;
                const fresh = newQuestion(type);
                const patch: Partial<QuestionDraft> = { type };
                // A new choice question starts with two empty choices; a rating with its labels.
                if ((type === 'single_choice' || type === 'multiple_choice') && q.choices.length === 0) patch.choices = fresh.choices;
                if (type === 'rating' && !q.lowerBoundLabel && !q.upperBoundLabel)
                  Object.assign(patch, { lowerBoundLabel: fresh.lowerBoundLabel, upperBoundLabel: fresh.upperBoundLabel });
                // Branching by answer depends on the answers: another type starts over.
                if (q.branching.type === 'response_based') patch.branching = { type: 'next_question' };
                set(patch);
              }}
              allowDeselect={false}
              w={170}
              size="xs"
            />
          </Group>
          {tools}
        </Group>
        {stray.map((message) => (
          <Text key={message} size="sm" c="red" role="alert" className="wrap-anywhere">
            {message}
          </Text>
        ))}
        <Textarea
          label="Question"
          value={q.question}
          onChange={(e) => set({ question: e.currentTarget.value })}
          error={errorOf(`${at}.question`)}
          autosize
          minRows={1}
          maxRows={4}
          maxLength={2000}
          required
          data-autofocus
        />
        <Textarea
          label="Description"
          description="Optional: a line under the question."
          value={q.description}
          onChange={(e) => set({ description: e.currentTarget.value })}
          error={errorOf(`${at}.description`)}
          autosize
          minRows={1}
          maxRows={4}
          maxLength={4000}
        />
        {q.type === 'rating' && (
          <Stack gap="xs">
            <Group gap="md" align="flex-end" wrap="wrap">
              <Labelled label="Display">
                {(id) => (
                  <SegmentedControl
                    aria-labelledby={id}
                    data={[
                      { value: 'number', label: 'Numbers' },
                      { value: 'emoji', label: 'Emoji' },
                    ]}
                    value={q.display}
                    onChange={(v) => {
                      const display = v as QuestionDraft['display'];
                      // Each display has its scales; 5 is in both.
                      const scale = SCALES[display].some((x) => x.value === String(q.scale)) ? q.scale : 5;
                      set({ display, scale, branching: scale === q.scale ? q.branching : { type: 'next_question' } });
                    }}
                  />
                )}
              </Labelled>
              <Select
                label="Scale"
                data={SCALES[q.display]}
                value={String(q.scale)}
                onChange={(v) => {
                  // Branching by answer names the scale's buckets: another scale starts over.
                  const branching = q.branching.type === 'response_based' ? { type: 'next_question' as const } : q.branching;
                  set({ scale: Number(v ?? 5), branching });
                }}
                error={errorOf(`${at}.scale`)}
                allowDeselect={false}
                w={170}
              />
            </Group>
            <Group gap="sm" grow>
              <TextInput
                label="Label of the lowest"
                value={q.lowerBoundLabel}
                onChange={(e) => set({ lowerBoundLabel: e.currentTarget.value })}
                maxLength={200}
              />
              <TextInput
                label="Label of the highest"
                value={q.upperBoundLabel}
                onChange={(e) => set({ upperBoundLabel: e.currentTarget.value })}
                maxLength={200}
              />
            </Group>
          </Stack>
        )}
        {isChoice && (
          <Stack gap={6} role="group" aria-label="Choices">
            {q.choices.map((choice, c) => (
              <Group key={c} gap="xs" wrap="nowrap">
                <TextInput
                  aria-label={`Choice ${c + 1}`}
                  placeholder={q.hasOpenChoice && c === q.choices.length - 1 ? 'Other (people write their own)' : `Choice ${c + 1}`}
                  value={choice}
                  onChange={(e) => set({ choices: q.choices.map((x, k) => (k === c ? e.currentTarget.value : x)) })}
                  maxLength={400}
                  style={{ flex: 1 }}
                />
                <ActionIcon variant="subtle" color="gray" aria-label={`Remove choice ${c + 1}`} onClick={() => onChange(removeChoice(q, c))}>
                  ✕
                </ActionIcon>
              </Group>
            ))}
            {errorOf(`${at}.choices`) && (
              <Text size="xs" c="red" role="alert">
                {errorOf(`${at}.choices`)}
              </Text>
            )}
            <Group gap="md">
              <Button variant="default" size="xs" onClick={() => set({ choices: [...q.choices, ''] })} disabled={q.choices.length >= 50}>
                Add choice
              </Button>
            </Group>
            <Checkbox
              label="The last choice lets people write their own answer"
              checked={q.hasOpenChoice}
              onChange={(e) => set({ hasOpenChoice: e.currentTarget.checked })}
            />
            <Checkbox
              label="Shuffle the choices for each person"
              checked={q.shuffleOptions}
              onChange={(e) => set({ shuffleOptions: e.currentTarget.checked })}
            />
          </Stack>
        )}
        {q.type === 'link' && (
          <TextInput
            label="Link"
            description="Where the button leads: a page of yours, a booking form, an email address (mailto:)."
            placeholder="https://example.com/interview"
            value={q.link}
            onChange={(e) => set({ link: e.currentTarget.value })}
            error={errorOf(`${at}.link`)}
            maxLength={2000}
          />
        )}
        <Group gap="md" align="flex-end" wrap="wrap">
          <TextInput
            label="Button text"
            value={q.buttonText}
            onChange={(e) => set({ buttonText: e.currentTarget.value })}
            error={errorOf(`${at}.buttonText`)}
            maxLength={100}
            w={200}
          />
          <Switch label="Optional" description="People may skip it" checked={q.optional} onChange={(e) => set({ optional: e.currentTarget.checked })} mb={4} />
        </Group>
        <BranchingEditor index={index} questions={questions} onChange={(branching) => set({ branching })} error={errorOf(`${at}.branching`)} />
      </Stack>
    </Card>
  );
}
