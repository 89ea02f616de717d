import { Button, Card, Group, NumberInput, Select, Slider, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { GroupType } from '../../api/types';
import { groupTypeName } from '../persons/api';
import { FilterRow, type CohortOption } from './filter-row';
import type { ConditionDraft } from './flag-draft';

/**
 * The condition editor: condition sets (OR'd), each of filters on properties (AND'd) and a rollout percentage, with a
 * variant per set when the flag has variants. Flags use it for their release conditions, surveys for whom they target.
 * Errors are looked up by field: `filter-<set>-<filter>`, `rollout-<set>`.
 */
export function ConditionSets({
  conditions,
  onChange,
  aggregation = 'person',
  groupTypes,
  propertyNames,
  cohorts,
  variants,
  errorOf,
  personOnly,
  empty = 'No condition set: nobody gets this flag. Add one to release it.',
}: {
  conditions: ConditionDraft[];
  onChange: (conditions: ConditionDraft[]) => void;
  /** 'person', or the index of the group type the sets match. */
  aggregation?: string;
  groupTypes: GroupType[] | undefined;
  propertyNames: string[];
  /** The project's cohorts, when a filter may be membership of one. */
  cohorts?: CohortOption[];
  /** The variant keys a set may force (multivariate flags only). */
  variants?: string[];
  errorOf: (field: string) => string | undefined;
  /** Filters read person properties only (no "Of" choice). */
  personOnly?: boolean;
  /** What no condition set means. */
  empty?: ReactNode;
}) {
  const setCondition = (i: number, patch: Partial<ConditionDraft>) => onChange(conditions.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <>
      {conditions.length === 0 && (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      )}
      {conditions.map((c, i) => (
        <Card key={i} withBorder padding="md" bg="var(--mantine-color-default-hover)">
          <Stack gap="sm">
            <Group justify="space-between">
              <Text fw={600} size="sm">
                Condition set {i + 1}
              </Text>
              <Button variant="subtle" color="red" size="compact-sm" onClick={() => onChange(conditions.filter((_, j) => j !== i))}>
                Remove set {i + 1}
              </Button>
            </Group>
            {c.filters.map((f, j) => (
              <FilterRow
                key={j}
                filter={f}
                byGroup={aggregation !== 'person'}
                personOnly={personOnly}
                groupTypes={groupTypes}
                propertyNames={propertyNames}
                cohorts={cohorts}
                error={errorOf(`filter-${i}-${j}`)}
                onChange={(patch) => setCondition(i, { filters: c.filters.map((x, k) => (k === j ? { ...x, ...patch } : x)) })}
                onRemove={() => setCondition(i, { filters: c.filters.filter((_, k) => k !== j) })}
              />
            ))}
            <Group>
              <Button
                variant="default"
                size="xs"
                onClick={() =>
                  setCondition(i, {
                    filters: [...c.filters, { key: '', type: 'person', group_type_index: '0', operator: 'exact', values: [], value: '' }],
                  })
                }
              >
                Add filter
              </Button>
              {c.filters.length === 0 && (
                <Text size="xs" c="dimmed">
                  No filters: this set matches every {aggregation === 'person' ? 'user' : groupTypeName(groupTypes, Number(aggregation))}.
                </Text>
              )}
            </Group>
            <Group align="flex-end" gap="md" wrap="wrap">
              <NumberInput
                label={i === 0 ? 'Rollout percentage' : `Rollout percentage of set ${i + 1}`}
                w={170}
                min={0}
                max={100}
                step={1}
                decimalScale={2}
                suffix="%"
                value={c.rollout}
                onChange={(v) => setCondition(i, { rollout: v })}
                error={errorOf(`rollout-${i}`)}
                clampBehavior="strict"
              />
              <Slider
                style={{ flex: '1 1 200px' }}
                mb={8}
                min={0}
                max={100}
                step={1}
                value={Number(c.rollout) || 0}
                onChange={(v) => setCondition(i, { rollout: v })}
                marks={[0, 25, 50, 75, 100].map((value) => ({ value, label: `${value}%` }))}
                thumbLabel={`Drag to set the rollout of set ${i + 1}`}
                label={(v) => `${v}%`}
              />
            </Group>
            {variants && (
              <Select
                label="Variant for this set"
                description="Optional: everyone matching this set gets this variant."
                w={260}
                data={[{ value: '', label: 'Split by percentages' }, ...variants.map((v) => ({ value: v, label: v }))]}
                value={c.variant ?? ''}
                onChange={(v) => setCondition(i, { variant: v || null })}
                allowDeselect={false}
              />
            )}
          </Stack>
        </Card>
      ))}
      <Group>
        <Button variant="default" onClick={() => onChange([...conditions, { filters: [], rollout: 100, variant: null }])}>
          Add condition set
        </Button>
      </Group>
    </>
  );
}
