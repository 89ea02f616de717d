import { ActionIcon, Autocomplete, Button, Card, Checkbox, Group, Input, NumberInput, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { eventQueries } from '../events/api';
import { flagQueries } from '../flags/api';
import { DEVICE_TYPES, MATCH_TYPES } from './labels';
import type { EventDraft, SurveyDraft } from './survey-draft';
import type { MatchType } from './types';

/** How an event's property is compared (posthog-js's operators of event property filters). */
const EVENT_OPERATORS = [
  { value: 'exact', label: 'equals' },
  { value: 'is_not', label: "doesn't equal" },
  { value: 'icontains', label: 'contains' },
  { value: 'not_icontains', label: "doesn't contain" },
  { value: 'regex', label: 'matches regex' },
  { value: 'not_regex', label: "doesn't match regex" },
  { value: 'gt', label: '> (greater than)' },
  { value: 'lt', label: '< (less than)' },
];

/**
 * Where and when the survey shows: a page URL, an element on the page, events (in the browser, or captured by a
 * server), devices, a wait since the last survey, and a flag the person must have (a variant of it, maybe).
 */
export function ConditionsSection({
  projectId,
  draft: d,
  update,
  errorOf,
}: {
  projectId: number;
  draft: SurveyDraft;
  update: (patch: Partial<SurveyDraft>) => void;
  errorOf: (field: string) => string | undefined;
}) {
  const eventNames = useQuery(eventQueries.names(projectId)).data?.results ?? [];
  const flags = useQuery(flagQueries.all(projectId));
  const linked = flags.data?.results.find((f) => f.key === d.linkedFlagKey);
  const variants = linked?.filters.multivariate?.variants ?? [];
  const setEvent = (i: number, patch: Partial<EventDraft>) => update({ events: d.events.map((e, j) => (j === i ? { ...e, ...patch } : e)) });
  const inApp = d.type === 'popover' || d.type === 'widget';

  return (
    <Stack gap="md">
      {inApp && (
        <Group gap="xs" align="flex-start" wrap="wrap">
          <Select
            label="Page URL"
            data={MATCH_TYPES}
            value={d.urlMatchType}
            onChange={(v) => update({ urlMatchType: (v ?? 'icontains') as MatchType })}
            allowDeselect={false}
            w={190}
          />
          <TextInput
            label="URL to match"
            description="Empty: any page."
            placeholder="/checkout"
            value={d.url}
            onChange={(e) => update({ url: e.currentTarget.value })}
            error={errorOf('conditions.url')}
            classNames={{ input: 'mono' }}
            maxLength={2000}
            style={{ flex: '1 1 240px' }}
          />
        </Group>
      )}
      {inApp && (
        <TextInput
          label="Only on pages with this element"
          description="A CSS selector; empty: any page."
          placeholder="#pricing-table"
          value={d.selector}
          onChange={(e) => update({ selector: e.currentTarget.value })}
          error={errorOf('conditions.selector')}
          classNames={{ input: 'mono' }}
          maxLength={1000}
        />
      )}
      <Stack gap="xs" role="group" aria-labelledby="survey-events">
        <Input.Wrapper
          label="After an event"
          labelElement="div"
          labelProps={{ id: 'survey-events' }}
          description="The survey waits until the person does one of these. An event captured on the server (service-node or any SDK) makes them eligible at their next flag refresh, with no code in the browser."
        />
        {d.events.map((e, i) => (
          <Card key={i} withBorder padding="sm" radius="md" role="group" aria-label={`Event ${i + 1}`}>
            <Stack gap="xs">
              <Group gap="xs" align="flex-end" wrap="wrap">
                <Autocomplete
                  label="Event name"
                  placeholder="checkout_completed"
                  data={eventNames}
                  limit={50}
                  value={e.name}
                  onChange={(name) => setEvent(i, { name })}
                  classNames={{ input: 'mono', option: 'mono' }}
                  maxLength={400}
                  style={{ flex: '1 1 220px' }}
                />
                <Checkbox
                  label="Captured on the server"
                  checked={e.serverSide}
                  onChange={(ev) => setEvent(i, { serverSide: ev.currentTarget.checked })}
                  mb={8}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove event ${i + 1}`}
                  mb={6}
                  onClick={() => update({ events: d.events.filter((_, j) => j !== i) })}
                >
                  ✕
                </ActionIcon>
              </Group>
              {e.filters.map((f, k) => (
                <Group key={k} gap="xs" align="flex-end" wrap="wrap" pl="md">
                  <TextInput
                    label="Property"
                    value={f.key}
                    onChange={(ev) => setEvent(i, { filters: e.filters.map((x, m) => (m === k ? { ...x, key: ev.currentTarget.value } : x)) })}
                    classNames={{ input: 'mono' }}
                    w={160}
                    maxLength={400}
                  />
                  <Select
                    label="Operator"
                    data={EVENT_OPERATORS}
                    value={f.operator}
                    onChange={(v) => setEvent(i, { filters: e.filters.map((x, m) => (m === k ? { ...x, operator: v ?? 'exact' } : x)) })}
                    allowDeselect={false}
                    w={170}
                  />
                  <TagsInput
                    label="Values"
                    description="Press Enter after each"
                    value={f.values}
                    onChange={(values) => setEvent(i, { filters: e.filters.map((x, m) => (m === k ? { ...x, values } : x)) })}
                    style={{ flex: '1 1 180px' }}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove property filter ${k + 1} of event ${i + 1}`}
                    mb={6}
                    onClick={() => setEvent(i, { filters: e.filters.filter((_, m) => m !== k) })}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              ))}
              <Group>
                <Button variant="subtle" size="compact-xs" onClick={() => setEvent(i, { filters: [...e.filters, { key: '', operator: 'exact', values: [] }] })}>
                  Add property filter
                </Button>
              </Group>
            </Stack>
          </Card>
        ))}
        {errorOf('conditions.events') && (
          <Text size="xs" c="red" role="alert">
            {errorOf('conditions.events')}
          </Text>
        )}
        <Group gap="md">
          <Button variant="default" size="xs" onClick={() => update({ events: [...d.events, { name: '', serverSide: false, filters: [] }] })}>
            Add event
          </Button>
          {d.events.length > 0 && (
            <Checkbox
              label="Show it again each time the event happens"
              checked={d.repeatedActivation}
              onChange={(e) => update({ repeatedActivation: e.currentTarget.checked })}
            />
          )}
        </Group>
      </Stack>
      {inApp && (
        <Checkbox.Group
          label="Devices"
          description="None checked: every device."
          value={d.deviceTypes}
          onChange={(deviceTypes) => update({ deviceTypes })}
          error={errorOf('conditions.deviceTypes')}
        >
          <Group gap="md" mt={6}>
            {DEVICE_TYPES.map((t) => (
              <Checkbox key={t} value={t} label={t} />
            ))}
          </Group>
        </Checkbox.Group>
      )}
      <NumberInput
        label="Wait after any survey (days)"
        description="Not shown to someone who saw a survey within this many days. Empty: no wait."
        value={d.waitDays}
        onChange={(waitDays) => update({ waitDays })}
        error={errorOf('conditions.seenSurveyWaitPeriodInDays')}
        min={0}
        max={3650}
        allowDecimal={false}
        w={{ base: '100%', sm: 320 }}
      />
      <Group gap="xs" align="flex-start" wrap="wrap">
        <Select
          label="Linked feature flag"
          description="Only people for whom this flag is on."
          placeholder={flags.isPending ? 'Loading flags…' : 'No flag'}
          searchable
          clearable
          nothingFoundMessage="No flag has that key"
          data={(flags.data?.results ?? []).map((f) => f.key)}
          value={d.linkedFlagKey}
          onChange={(key) => update({ linkedFlagKey: key, linkedFlagVariant: null })}
          error={errorOf('linked_flag_key') ?? (flags.error ? 'Could not load the flags.' : undefined)}
          classNames={{ input: 'mono', option: 'mono' }}
          style={{ flex: '1 1 260px' }}
        />
        {variants.length > 0 && (
          <Select
            label="Variant"
            description="Only people with this variant."
            placeholder="Any variant"
            clearable
            data={variants.map((v) => v.key)}
            value={d.linkedFlagVariant}
            onChange={(linkedFlagVariant) => update({ linkedFlagVariant })}
            error={errorOf('conditions.linkedFlagVariant')}
            classNames={{ input: 'mono', option: 'mono' }}
            w={200}
          />
        )}
      </Group>
    </Stack>
  );
}
