import { Alert, Anchor, Button, Card, Group, Pagination, SegmentedControl, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../api/client';
import { useFormErrors } from '../../components/form-errors';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { earlyAccessQueries } from '../early-access/api';
import { ConditionSets } from '../flags/condition-sets';
import { personQueries } from '../persons/api';
import { ConditionsSection } from './conditions-section';
import { Labelled } from './labelled';
import { TYPE_INFO } from './labels';
import { QuestionEditor } from './question-editor';
import { AppearanceSection, ScheduleSection, WidgetSection } from './settings-sections';
import { fromDraft, moveQuestion, newQuestion, previewSurvey, removeQuestion, surveyFieldOf, type QuestionDraft, type SurveyDraft } from './survey-draft';
import { SurveyPreview } from './survey-preview';
import type { SurveyStatus, SurveyType } from './types';
import './surveys.css';

/** A titled part of the builder. */
function Section({ title, help, children, id }: { title: string; help?: ReactNode; children: ReactNode; id: string }) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby={id}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          {help && (
            <Text size="sm" c="dimmed">
              {help}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Card>
  );
}

const EDITABLE_TYPES: SurveyType[] = ['popover', 'widget', 'api'];

/**
 * The survey builder: name and type, the questions (one open at a time, the others a line each), appearance, when it
 * shows, whom it asks (the flags' condition editor on person properties), schedule and limits; beside them a live
 * preview of the open question, drawn by the client's renderer. Errors, the form's own and the API's, appear on their
 * field (a question with an error opens). `onSave` gets the API's body, and whether to launch once saved.
 */
export function SurveyBuilder({
  projectId,
  initial,
  status,
  onSave,
}: {
  projectId: number;
  initial: SurveyDraft;
  /** The saved survey's status; none for a new survey. */
  status?: SurveyStatus;
  onSave: (body: Record<string, unknown>, launch: boolean) => Promise<unknown>;
}) {
  const [d, setD] = useState(initial);
  const [open, setOpenQuestion] = useState(0);
  // The preview shows the open question, or the thank-you message.
  const [thanks, setThanks] = useState(false);
  const setOpen = (i: number) => {
    setOpenQuestion(i);
    setThanks(false);
  };
  const [busy, setBusy] = useState<'save' | 'launch' | null>(null);
  const errors = useFormErrors(surveyFieldOf);
  const guard = useUnsavedChanges(JSON.stringify(d) !== JSON.stringify(initial));
  const propertyNames = useQuery(personQueries.propertyNames(projectId)).data ?? [];
  const features = useQuery(earlyAccessQueries.list(projectId));
  const feature = features.data?.results.find((f) => f.id === d.linkedEarlyAccessFeatureId);
  const preview = useMemo(() => previewSurvey(d), [d]);
  const thankYou = d.type !== 'api' && d.appearance.displayThankYouMessage === true;
  const form = useRef<HTMLFormElement>(null);
  // After a save that found errors: the first field at fault comes into view, with the focus (it may be far above).
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (!failures) return;
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]');
    first?.scrollIntoView({ block: 'center' });
    // A select's input opens its list when focused: only text fields take the focus.
    if (first?.matches('input:not([aria-haspopup]), textarea')) first.focus({ preventScroll: true });
  }, [failures]);

  const update = (patch: Partial<SurveyDraft>) => setD((prev) => ({ ...prev, ...patch }));
  /** Clears the errors shown on the fields whose names start with `prefix`. */
  const touch = (prefix: string) => {
    for (const field of Object.keys(errors.fields)) if (field === prefix || field.startsWith(`${prefix}.`)) errors.clear(field);
  };
  const setQuestions = (questions: QuestionDraft[]) => {
    touch('questions');
    update({ questions });
  };
  /** Shows errors by field, and opens the first question that has one. */
  const show = (fields: Record<string, string>) => {
    for (const [field, message] of Object.entries(fields)) errors.set(field, message);
    setFailures((n) => n + 1);
    const first = Object.keys(fields).find((f) => f.startsWith('questions.'));
    if (first) setOpen(Number(first.split('.')[1]));
  };

  const save = async (launch: boolean) => {
    errors.clear();
    const { body, errors: invalid } = fromDraft(d, status === undefined ? undefined : initial);
    if (invalid) return show(invalid);
    setBusy(launch ? 'launch' : 'save');
    try {
      await guard.saving(() => onSave(body!, launch));
    } catch (error) {
      const field = error instanceof ApiError && error.attr ? surveyFieldOf(error.attr) : undefined;
      if (field) show({ [field]: (error as ApiError).detail });
      else {
        errors.fromError(error);
        setFailures((n) => n + 1);
      }
    } finally {
      setBusy(null);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(false);
  };

  return (
    <form onSubmit={submit} noValidate className="survey-builder" ref={form}>
      <Stack gap="lg" style={{ minWidth: 0 }}>
        {errors.general && (
          <Alert color="red" role="alert" className="wrap-anywhere">
            {errors.general}
          </Alert>
        )}
        <Section title="Survey" id="survey-basics">
          <TextInput
            label="Name"
            description="Only your team sees it."
            value={d.name}
            onChange={(e) => {
              update({ name: e.currentTarget.value });
              errors.clear('name');
            }}
            error={errors.field('name')}
            maxLength={400}
            required
          />
          <Textarea
            label="Description"
            description="What you want to learn, for your team."
            value={d.description}
            onChange={(e) => update({ description: e.currentTarget.value })}
            error={errors.field('description')}
            autosize
            minRows={1}
            maxRows={6}
            maxLength={10_000}
          />
          <Labelled label="Type" description={TYPE_INFO[d.type].help}>
            {(id) => (
              <SegmentedControl
                aria-labelledby={id}
                data={EDITABLE_TYPES.map((t) => ({ value: t, label: TYPE_INFO[t].label }))}
                value={d.type}
                onChange={(v) => update({ type: v as SurveyType })}
                w={{ base: '100%', sm: 420 }}
              />
            )}
          </Labelled>
          {d.type === 'widget' && <WidgetSection draft={d} update={update} />}
          {d.linkedEarlyAccessFeatureId && (
            <Alert variant="light" color="violet" title="Beta feedback">
              <Stack gap={6} align="flex-start">
                <Text size="sm">
                  Asks the people in the early access program of{' '}
                  {feature ? (
                    <Anchor component={Link} to={`/project/${projectId}/early_access/${feature.id}`}>
                      {feature.name}
                    </Anchor>
                  ) : (
                    'its feature'
                  )}
                  : only those for whom <code>{d.linkedFlagKey ?? 'its flag'}</code> is on.
                </Text>
                <Button variant="subtle" size="compact-xs" onClick={() => update({ linkedEarlyAccessFeatureId: null })}>
                  Unlink the feature
                </Button>
              </Stack>
            </Alert>
          )}
        </Section>

        <Section title="Questions" id="survey-questions" help="Asked one at a time, in this order unless a question leads elsewhere.">
          {errors.field('questions') && (
            <Text size="sm" c="red" role="alert">
              {errors.field('questions')}
            </Text>
          )}
          <Stack gap="xs">
            {d.questions.map((q, i) => (
              <QuestionEditor
                key={i}
                index={i}
                questions={d.questions}
                open={open === i}
                onOpen={() => setOpen(i)}
                onChange={(next) => setQuestions(d.questions.map((x, j) => (j === i ? next : x)))}
                onRemove={() => {
                  setQuestions(removeQuestion(d.questions, i));
                  setOpen(Math.max(0, Math.min(open, d.questions.length - 2)));
                }}
                onMove={(to) => {
                  setQuestions(moveQuestion(d.questions, i, to));
                  setOpen(to);
                }}
                errors={errors.fields}
              />
            ))}
          </Stack>
          <Group>
            <Button
              variant="default"
              disabled={d.questions.length >= 50}
              onClick={() => {
                setQuestions([...d.questions, newQuestion('open')]);
                setOpen(d.questions.length);
              }}
            >
              Add question
            </Button>
          </Group>
        </Section>

        {d.type !== 'api' && (
          <Section title="Appearance" id="survey-appearance">
            <AppearanceSection draft={d} update={update} />
          </Section>
        )}

        <Section title="Display conditions" id="survey-conditions" help="When and where the survey shows. All of them must hold.">
          <ConditionsSection
            projectId={projectId}
            draft={d}
            update={(patch) => {
              touch('conditions');
              errors.clear('linked_flag_key');
              update(patch);
            }}
            errorOf={errors.field}
          />
        </Section>

        <Section
          title="Who is asked"
          id="survey-targeting"
          help="People whose properties match any condition set, within its rollout. Their properties are read when their flags are."
        >
          {errors.field('targeting') && (
            <Text size="sm" c="red" role="alert" className="wrap-anywhere">
              {errors.field('targeting')}
            </Text>
          )}
          <ConditionSets
            conditions={d.targeting}
            onChange={(targeting) => {
              touch('targeting');
              update({ targeting });
            }}
            groupTypes={undefined}
            propertyNames={propertyNames}
            errorOf={(field) => errors.field(`targeting.${field}`)}
            personOnly
            empty="Everyone who meets the display conditions. Add a condition set to ask only some people, by their properties (plan, country, sign-up date…)."
          />
        </Section>

        <Section title="Schedule and limits" id="survey-schedule-section">
          <ScheduleSection
            draft={d}
            update={(patch) => {
              for (const f of Object.keys(patch))
                errors.clear(
                  { iterationCount: 'iteration_count', iterationFrequencyDays: 'iteration_frequency_days', responsesLimit: 'responses_limit' }[f] ?? f,
                );
              update(patch);
            }}
            errorOf={errors.field}
          />
        </Section>

        <Group justify="space-between" wrap="wrap">
          <Group gap="sm">
            <Button type="submit" loading={busy === 'save'} disabled={busy === 'launch'} variant={status === 'running' ? 'filled' : 'default'}>
              {status === undefined ? 'Save as draft' : 'Save'}
            </Button>
            {(status === undefined || status === 'draft') && (
              <Button onClick={() => void save(true)} loading={busy === 'launch'} disabled={busy === 'save'}>
                Save and launch
              </Button>
            )}
          </Group>
          {status === 'running' && (
            <Text size="xs" c="dimmed" maw={420}>
              It is running: changes reach people the next time their app loads surveys. Answers already given stay with their questions.
            </Text>
          )}
        </Group>
      </Stack>

      <aside className="survey-builder-preview" aria-label="Live preview">
        <Stack gap="xs">
          <Group justify="space-between">
            <Text size="sm" fw={600}>
              Preview
            </Text>
            <Pagination
              size="sm"
              total={d.questions.length + (thankYou ? 1 : 0)}
              value={thankYou && thanks ? d.questions.length + 1 : open + 1}
              onChange={(page) => (page > d.questions.length ? setThanks(true) : setOpen(page - 1))}
              getControlProps={(control) => ({ 'aria-label': `${control} page of the preview` })}
              getItemProps={(p) => ({
                'aria-label': p > d.questions.length ? 'Preview the thank-you message' : `Preview question ${p}`,
                children: p > d.questions.length ? '✓' : p,
              })}
            />
          </Group>
          <SurveyPreview survey={preview} questionIndex={thankYou && thanks ? d.questions.length : Math.min(open, d.questions.length - 1)} />
          <Text size="xs" c="dimmed">
            Drawn by the same code that shows it in your app{d.type === 'api' ? ' (an API survey is drawn by your own components instead)' : ''}.
          </Text>
        </Stack>
      </aside>
    </form>
  );
}
