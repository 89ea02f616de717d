import { ActionIcon, Autocomplete, Group, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { groupTypeName } from '../persons/api';
import type { GroupType } from '../../api/types';
import { LIST_OPERATORS, NO_VALUE, OPERATORS, type FilterDraft } from './flag-draft';

/**
 * The group types to choose from, by name: the project's, and any index `used` names that the project has no type for
 * (a flag made elsewhere). Before the project's types are known (or when they cannot be read), indexes 0 to 4.
 */
export function groupTypeOptions(types: GroupType[] | undefined, used: string[]): { value: string; label: string }[] {
  const indexes = types ? types.map((t) => t.group_type_index) : [0, 1, 2, 3, 4];
  for (const u of used) if (u !== 'person' && !indexes.includes(Number(u))) indexes.push(Number(u));
  return indexes.sort((a, b) => a - b).map((i) => ({ value: String(i), label: groupTypeName(types, i) }));
}

/** One filter of a condition set: whose property (a person's or a group's), which, the operator and the value. */
export function FilterRow({
  filter,
  byGroup,
  personOnly,
  groupTypes,
  propertyNames,
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
            ]}
            value={filter.type}
            onChange={(v) => onChange({ type: v ?? 'person' })}
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
        <Autocomplete
          label="Property"
          placeholder="email"
          data={ofPerson ? propertyNames : []}
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
