import { ActionIcon, Autocomplete, Group, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { groupTypeName } from '../persons/api';
import type { GroupType } from '../../api/types';
import { COHORT_OPERATORS, LIST_OPERATORS, NO_VALUE, OPERATORS, type FilterDraft } from './flag-draft';

/**
 * The group types to choose from, by name: the project's, and any index `used` names that the project has no type for
 * (a flag made elsewhere). Before the project's types are known (or when they cannot be read), indexes 0 to 4.
 */
export function groupTypeOptions(types: GroupType[] | undefined, used: string[]): { value: string; label: string }[] {
  const indexes = types ? types.map((t) => t.group_type_index) : [0, 1, 2, 3, 4];
  for (const u of used) if (u !== 'person' && !indexes.includes(Number(u))) indexes.push(Number(u));
  return indexes.sort((a, b) => a - b).map((i) => ({ value: String(i), label: groupTypeName(types, i) }));
}

/** A cohort a filter may name (the project's live cohorts). */
export interface CohortOption {
  id: number;
  name: string;
}

/** The "Of" choice of a filter: whose property, or a cohort's membership (its operator is in / not in). */
function ofChange(filter: FilterDraft, type: string): Partial<FilterDraft> {
  if (type === 'cohort') return { type, operator: 'in', value: '', key: 'id' };
  return filter.type === 'cohort' ? { type, operator: 'exact', value: '', key: '' } : { type };
}

/** One filter of a condition set: whose property (a person's or a group's) or which cohort, the operator and the value. */
export function FilterRow({
  filter,
  byGroup,
  personOnly,
  groupTypes,
  propertyNames,
  cohorts,
  error,
  onChange,
  onRemove,
}: {
  filter: FilterDraft;
  byGroup: boolean;
  /** Only a person's properties: no choice of whose. */
  personOnly?: boolean;
  groupTypes: GroupType[] | undefined;
  /** Names of the project's person properties, suggested for a person's filter. */
  propertyNames: string[];
  /** The project's cohorts: given, a filter may be membership of one. */
  cohorts?: CohortOption[];
  error?: string;
  onChange: (patch: Partial<FilterDraft>) => void;
  onRemove: () => void;
}) {
  const ofPerson = !byGroup && filter.type !== 'group';
  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-end" wrap="wrap">
        {!byGroup && !personOnly && (
          <Select
            label="Of"
            w={110}
            data={[
              { value: 'person', label: 'Person' },
              { value: 'group', label: 'Group' },
              ...(cohorts || filter.type === 'cohort' ? [{ value: 'cohort', label: 'Cohort' }] : []),
            ]}
            value={filter.type}
            onChange={(v) => onChange(ofChange(filter, v ?? 'person'))}
            allowDeselect={false}
          />
        )}
        {filter.type === 'group' && !byGroup && (
          <Select
            label="Group type"
            w={150}
            data={groupTypeOptions(groupTypes, [filter.group_type_index])}
            value={filter.group_type_index}
            onChange={(v) => onChange({ group_type_index: v ?? '0' })}
            allowDeselect={false}
          />
        )}
        {filter.type === 'cohort' && !byGroup ? (
          <CohortFields filter={filter} cohorts={cohorts} onChange={onChange} />
        ) : (
          <PropertyFields filter={filter} propertyNames={ofPerson ? propertyNames : []} onChange={onChange} />
        )}
        <ActionIcon variant="subtle" color="red" aria-label="Remove filter" onClick={onRemove} mb={4}>
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

/** Which cohort, in or not in: the cohort is named; one the list lacks (deleted, or past the first 500) by its id. */
export function CohortFields({
  filter,
  cohorts = [],
  onChange,
}: {
  filter: FilterDraft;
  cohorts?: CohortOption[];
  onChange: (patch: Partial<FilterDraft>) => void;
}) {
  const data = cohorts.map((c) => ({ value: String(c.id), label: c.name }));
  if (filter.value && !data.some((d) => d.value === filter.value)) data.push({ value: filter.value, label: `Cohort ${filter.value}` });
  return (
    <>
      <Select
        label="Operator"
        data={COHORT_OPERATORS}
        value={filter.operator}
        onChange={(v) => onChange({ operator: v ?? 'in' })}
        w={130}
        allowDeselect={false}
      />
      <Select
        label="Cohort"
        placeholder={data.length ? 'Pick a cohort' : 'No cohorts yet'}
        data={data}
        value={filter.value || null}
        onChange={(v) => onChange({ value: v ?? '' })}
        searchable
        nothingFoundMessage="No cohort of that name"
        style={{ flex: '1 1 220px' }}
        comboboxProps={{ width: 320, position: 'bottom-start' }}
        classNames={{ option: 'wrap-anywhere' }}
      />
    </>
  );
}

/** Which property, the operator and the value to compare with (a list, one value, or none, as the operator needs). */
export function PropertyFields({
  filter,
  propertyNames,
  onChange,
}: {
  filter: FilterDraft;
  /** Property names to suggest. */
  propertyNames: string[];
  onChange: (patch: Partial<FilterDraft>) => void;
}) {
  return (
    <>
      <Autocomplete
        label="Property"
        placeholder="email"
        data={propertyNames}
        limit={50}
        value={filter.key}
        onChange={(key) => onChange({ key })}
        w={180}
        maxLength={400}
        classNames={{ option: 'wrap-anywhere' }}
        comboboxProps={{ width: 280, position: 'bottom-start' }}
      />
      <Select
        label="Operator"
        data={OPERATORS}
        value={filter.operator}
        onChange={(v) => onChange({ operator: v ?? 'exact' })}
        w={200}
        searchable
        allowDeselect={false}
      />
      {NO_VALUE.has(filter.operator) ? null : LIST_OPERATORS.has(filter.operator) ? (
        <TagsInput
          label="Values"
          description="Press Enter after each"
          value={filter.values}
          onChange={(values) => onChange({ values })}
          style={{ flex: '1 1 200px' }}
          maxTags={1000}
        />
      ) : (
        <TextInput
          label="Value"
          placeholder={
            filter.operator.includes('between')
              ? '[1, 10]'
              : filter.operator.startsWith('semver')
                ? '1.2.0'
                : filter.operator.startsWith('is_date')
                  ? '2026-01-31 or -7d'
                  : ''
          }
          value={filter.value}
          onChange={(e) => onChange({ value: e.currentTarget.value })}
          style={{ flex: '1 1 160px' }}
        />
      )}
    </>
  );
}
