import { ColorInput, Group, NumberInput, SegmentedControl, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { Labelled } from './labelled';
import { POSITIONS, SCHEDULES } from './labels';
import type { SurveyDraft } from './survey-draft';
import type { SurveyAppearance, SurveySchedule } from './types';

type Update = (patch: Partial<SurveyDraft>) => void;
type ErrorOf = (field: string) => string | undefined;

/** How the survey looks: its colours, where it pops up, the placeholder of open answers, the thank-you message. */
export function AppearanceSection({ draft: d, update }: { draft: SurveyDraft; update: Update }) {
  const a = d.appearance;
  const set = (patch: Partial<SurveyAppearance>) => update({ appearance: { ...a, ...patch } });
  const color = (key: 'backgroundColor' | 'submitButtonColor' | 'textColor', label: string) => (
    <ColorInput
      label={label}
      value={a[key] ?? ''}
      onChange={(value) => set({ [key]: value })}
      format="hex"
      eyeDropperButtonProps={{ 'aria-label': `Pick the ${label.toLowerCase()} colour from the screen` }}
      w={{ base: '100%', xs: 180 }}
    />
  );
  return (
    <Stack gap="md">
      <Group gap="md" wrap="wrap">
        {color('backgroundColor', 'Background')}
        {color('textColor', 'Text')}
        {color('submitButtonColor', 'Button')}
      </Group>
      <Group gap="md" wrap="wrap" align="flex-start">
        {d.type === 'popover' && (
          <Select
            label="Position"
            data={POSITIONS}
            value={a.position ?? 'right'}
            onChange={(position) => set({ position: position ?? 'right' })}
            allowDeselect={false}
            w={{ base: '100%', xs: 200 }}
          />
        )}
        {d.type === 'popover' && (
          <NumberInput
            label="Delay (seconds)"
            description="After the conditions match"
            value={a.surveyPopupDelaySeconds ?? ''}
            onChange={(v) => set({ surveyPopupDelaySeconds: v === '' ? undefined : Number(v) })}
            min={0}
            max={3600}
            allowDecimal={false}
            w={{ base: '100%', xs: 180 }}
          />
        )}
        <TextInput
          label="Placeholder of open answers"
          value={a.placeholder ?? ''}
          onChange={(e) => set({ placeholder: e.currentTarget.value })}
          maxLength={200}
          style={{ flex: '1 1 200px' }}
        />
      </Group>
      <Switch
        label="Thank people when they are done"
        checked={a.displayThankYouMessage ?? false}
        onChange={(e) => set({ displayThankYouMessage: e.currentTarget.checked })}
      />
      {a.displayThankYouMessage && (
        <Group gap="md" grow wrap="wrap" align="flex-start">
          <TextInput
            label="Thank-you title"
            value={a.thankYouMessageHeader ?? ''}
            onChange={(e) => set({ thankYouMessageHeader: e.currentTarget.value })}
            maxLength={200}
          />
          <Textarea
            label="Thank-you message"
            value={a.thankYouMessageDescription ?? ''}
            onChange={(e) => set({ thankYouMessageDescription: e.currentTarget.value })}
            autosize
            minRows={1}
            maxRows={4}
            maxLength={1000}
          />
        </Group>
      )}
    </Stack>
  );
}

/** How the feedback widget opens the survey: a tab on the page's edge, a button, or an element of the app. */
export function WidgetSection({ draft: d, update }: { draft: SurveyDraft; update: Update }) {
  const a = d.appearance;
  const set = (patch: Partial<SurveyAppearance>) => update({ appearance: { ...a, ...patch } });
  return (
    <Group gap="md" align="flex-start" wrap="wrap">
      <Select
        label="Opened by"
        data={[
          { value: 'tab', label: 'A tab on the edge of the page' },
          { value: 'button', label: 'A floating button' },
          { value: 'selector', label: 'An element of your app' },
        ]}
        value={a.widgetType ?? 'tab'}
        onChange={(v) => set({ widgetType: (v ?? 'tab') as SurveyAppearance['widgetType'] })}
        allowDeselect={false}
        w={{ base: '100%', xs: 260 }}
      />
      {(a.widgetType ?? 'tab') === 'selector' ? (
        <TextInput
          label="Element (CSS selector)"
          placeholder="#feedback-button"
          value={a.widgetSelector ?? ''}
          onChange={(e) => set({ widgetSelector: e.currentTarget.value })}
          classNames={{ input: 'mono' }}
          maxLength={1000}
          style={{ flex: '1 1 200px' }}
        />
      ) : (
        <TextInput
          label="Label"
          placeholder="Feedback"
          value={a.widgetLabel ?? ''}
          onChange={(e) => set({ widgetLabel: e.currentTarget.value })}
          maxLength={100}
          style={{ flex: '1 1 200px' }}
        />
      )}
    </Group>
  );
}

/** How often people are asked, when the survey stops by itself, and whether unfinished answers count. */
export function ScheduleSection({ draft: d, update, errorOf }: { draft: SurveyDraft; update: Update; errorOf: ErrorOf }) {
  const schedule = SCHEDULES.find((s) => s.value === d.schedule) ?? SCHEDULES[0]!;
  return (
    <Stack gap="md">
      <Labelled label="How often" description={schedule.help}>
        {(id) => (
          <SegmentedControl
            aria-labelledby={id}
            data={SCHEDULES.map((s) => ({ value: s.value, label: s.label }))}
            value={d.schedule}
            onChange={(v) => update({ schedule: v as SurveySchedule })}
            w={{ base: '100%', sm: 360 }}
          />
        )}
      </Labelled>
      {d.schedule === 'recurring' && (
        <Group gap="md" wrap="wrap" align="flex-start">
          <NumberInput
            label="Rounds"
            description="How many times to ask"
            value={d.iterationCount}
            onChange={(iterationCount) => update({ iterationCount })}
            error={errorOf('iteration_count')}
            min={1}
            max={500}
            allowDecimal={false}
            w={{ base: '100%', xs: 180 }}
          />
          <NumberInput
            label="Every (days)"
            description="Between two rounds"
            value={d.iterationFrequencyDays}
            onChange={(iterationFrequencyDays) => update({ iterationFrequencyDays })}
            error={errorOf('iteration_frequency_days')}
            min={1}
            max={3650}
            allowDecimal={false}
            w={{ base: '100%', xs: 180 }}
          />
        </Group>
      )}
      <NumberInput
        label="Stop after this many responses"
        description="The survey stops itself when it has them. Empty: no limit."
        value={d.responsesLimit}
        onChange={(responsesLimit) => update({ responsesLimit })}
        error={errorOf('responses_limit')}
        min={1}
        allowDecimal={false}
        w={{ base: '100%', sm: 320 }}
      />
      <Switch
        label="Keep partial responses"
        description="Each answer is saved as it is given, so people who leave halfway still count."
        checked={d.partialResponses}
        onChange={(e) => update({ partialResponses: e.currentTarget.checked })}
      />
    </Stack>
  );
}
