import { ActionIcon, Autocomplete, Button, Card, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { eventQueries } from '../events/api';
import { flagQueries } from '../flags/api';
import { CohortFields, PropertyFields, type CohortOption } from '../flags/filter-row';
import { personQueries } from '../persons/api';
import { cohortQueries } from './api';
import { newCriterion, type CriterionDraft } from './cohort-draft';

const KINDS = [
  { value: 'person', label: 'Has a property' },
  { value: 'behavioral', label: 'Did an event' },
  { value: 'flag_variant', label: 'Got a flag variant' },
  { value: 'cohort', label: 'Is in a cohort' },
];

/**
 * A dynamic cohort's criteria: groups (a person in any group is in the cohort), each of criteria (all must hold):
 * a person property, an event done at least N times in the last D days, a variant of a flag got, another cohort.
 * Errors are looked up by field: `criterion-<group>-<criterion>`, `group-<group>`.
 */
export function CriteriaEditor({
  projectId,
  cohortId,
  groups,
  onChange,
  errorOf,
}: {
  projectId: number;
  /** The cohort edited, which its own criteria cannot name. */
  cohortId?: number;
  groups: CriterionDraft[][];
  onChange: (groups: CriterionDraft[][]) => void;
  errorOf: (field: string) => string | undefined;
}) {
  const propertyNames = useQuery(personQueries.propertyNames(projectId)).data ?? [];
  const cohorts = (useQuery(cohortQueries.all(projectId)).data?.results ?? []).filter((c) => c.id !== cohortId && !c.deleted);
  const setGroup = (i: number, group: CriterionDraft[]) => onChange(groups.map((g, j) => (j === i ? group : g)));
  return (
    <Stack gap="sm">
      {groups.map((group, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <Text size="sm" fw={600} c="dimmed" ta="center" aria-hidden>
              or
            </Text>
          )}
          <Card withBorder padding="md" bg="var(--mantine-color-default-hover)" component="fieldset" aria-label={`Group ${i + 1}`} style={{ margin: 0 }}>
            <Stack gap="sm">
              <Group justify="space-between">
                <Text fw={600} size="sm">
                  Group {i + 1}: people who match all of these
                </Text>
                <Button variant="subtle" color="red" size="compact-sm" onClick={() => onChange(groups.filter((_, j) => j !== i))}>
                  Remove group {i + 1}
                </Button>
              </Group>
              {group.map((c, j) => (
                <CriterionRow
                  key={j}
                  projectId={projectId}
                  criterion={c}
                  propertyNames={propertyNames}
                  cohorts={cohorts}
                  error={errorOf(`criterion-${i}-${j}`)}
                  onChange={(patch) =>
                    setGroup(
                      i,
                      group.map((x, k) => (k === j ? { ...x, ...patch } : x)),
                    )
                  }
                  onRemove={() =>
                    setGroup(
                      i,
                      group.filter((_, k) => k !== j),
                    )
                  }
                />
              ))}
              {errorOf(`group-${i}`) && (
                <Text c="red" size="xs" role="alert">
                  {errorOf(`group-${i}`)}
                </Text>
              )}
              <Group>
                <Button variant="default" size="xs" onClick={() => setGroup(i, [...group, newCriterion()])}>
                  Add criterion
                </Button>
              </Group>
            </Stack>
          </Card>
        </Fragment>
      ))}
      <Group>
        <Button variant="default" onClick={() => onChange([...groups, [newCriterion()]])}>
          {groups.length ? 'Add a group (or)' : 'Add a group'}
        </Button>
      </Group>
    </Stack>
  );
}

function CriterionRow({
  projectId,
  criterion: c,
  propertyNames,
  cohorts,
  error,
  onChange,
  onRemove,
}: {
  projectId: number;
  criterion: CriterionDraft;
  propertyNames: string[];
  cohorts: CohortOption[];
  error?: string;
  onChange: (patch: Partial<CriterionDraft>) => void;
  onRemove: () => void;
}) {
  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          label="Criterion"
          w={180}
          data={KINDS}
          value={c.kind}
          onChange={(v) => onChange(newCriterion((v ?? 'person') as CriterionDraft['kind']))}
          allowDeselect={false}
        />
        {c.kind === 'person' && (
          <PropertyFields filter={c.filter} propertyNames={propertyNames} onChange={(patch) => onChange({ filter: { ...c.filter, ...patch } })} />
        )}
        {c.kind === 'cohort' && <CohortFields filter={c.filter} cohorts={cohorts} onChange={(patch) => onChange({ filter: { ...c.filter, ...patch } })} />}
        {c.kind === 'behavioral' && <EventFields projectId={projectId} criterion={c} onChange={onChange} />}
        {c.kind === 'flag_variant' && <FlagVariantFields projectId={projectId} criterion={c} onChange={onChange} />}
        {(c.kind === 'behavioral' || c.kind === 'flag_variant') && (
          <NumberInput
            label="In the last (days)"
            w={140}
            min={1}
            max={3650}
            step={1}
            allowDecimal={false}
            value={c.days}
            onChange={(days) => onChange({ days })}
          />
        )}
        <ActionIcon variant="subtle" color="red" aria-label="Remove criterion" onClick={onRemove} mb={4}>
          ✕
        </ActionIcon>
      </Group>
      {error && (
        <Text c="red" size="xs" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/** "Did event E at least N times": the event (the project's event names suggested) and the count. */
function EventFields({ projectId, criterion, onChange }: { projectId: number; criterion: CriterionDraft; onChange: (patch: Partial<CriterionDraft>) => void }) {
  const names = useQuery(eventQueries.names(projectId)).data?.results ?? [];
  return (
    <>
      <Autocomplete
        label="Event"
        placeholder="purchase"
        data={names}
        limit={50}
        value={criterion.event}
        onChange={(event) => onChange({ event })}
        w={200}
        maxLength={400}
        classNames={{ option: 'wrap-anywhere' }}
        comboboxProps={{ width: 280, position: 'bottom-start' }}
      />
      <NumberInput
        label="At least (times)"
        w={130}
        min={1}
        max={1_000_000}
        step={1}
        allowDecimal={false}
        value={criterion.count}
        onChange={(count) => onChange({ count })}
      />
    </>
  );
}

/** "Got variant V of flag F": the flag (the project's), then one of its variants (true or false for a boolean flag). */
function FlagVariantFields({
  projectId,
  criterion,
  onChange,
}: {
  projectId: number;
  criterion: CriterionDraft;
  onChange: (patch: Partial<CriterionDraft>) => void;
}) {
  const flags = useQuery(flagQueries.all(projectId)).data?.results ?? [];
  const flag = flags.find((f) => f.key === criterion.flag);
  const keys = flags.map((f) => f.key);
  if (criterion.flag && !keys.includes(criterion.flag)) keys.push(criterion.flag);
  const variants = flag?.filters.multivariate?.variants?.map((v) => v.key) ?? ['true', 'false'];
  if (criterion.variant && !variants.includes(criterion.variant)) variants.push(criterion.variant);
  return (
    <>
      <Select
        label="Flag"
        placeholder="Pick a flag"
        data={keys}
        value={criterion.flag || null}
        onChange={(key) => onChange({ flag: key ?? '', variant: '' })}
        searchable
        nothingFoundMessage="No flag of that key"
        w={220}
        classNames={{ option: 'wrap-anywhere mono' }}
        comboboxProps={{ width: 320, position: 'bottom-start' }}
      />
      <Select
        label="Variant"
        placeholder={criterion.flag ? 'Pick a variant' : 'Pick a flag first'}
        data={variants}
        value={criterion.variant || null}
        onChange={(variant) => onChange({ variant: variant ?? '' })}
        disabled={!criterion.flag}
        w={160}
      />
    </>
  );
}
