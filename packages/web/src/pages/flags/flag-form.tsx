import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Divider,
  Group,
  JsonInput,
  NumberInput,
  Select,
  Slider,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { Condition, FeatureFlag, FlagFilters, PropertyFilter, Variant } from '../../api/types';
import { useFormErrors } from '../../components/form-errors';
import { parseJson } from '../../components/format';

/** The engine's operators (packages/flag-engine/src/operators.ts), in words. */
export const OPERATORS: { value: string; label: string }[] = [
  { value: 'exact', label: 'equals' },
  { value: 'is_not', label: "doesn't equal" },
  { value: 'icontains', label: 'contains' },
  { value: 'not_icontains', label: "doesn't contain" },
  { value: 'regex', label: 'matches regex' },
  { value: 'not_regex', label: "doesn't match regex" },
  { value: 'starts_with', label: 'starts with' },
  { value: 'not_starts_with', label: "doesn't start with" },
  { value: 'ends_with', label: 'ends with' },
  { value: 'not_ends_with', label: "doesn't end with" },
  { value: 'icontains_multi', label: 'contains any of' },
  { value: 'not_icontains_multi', label: 'contains none of' },
  { value: 'gt', label: '> (greater than)' },
  { value: 'gte', label: '≥' },
  { value: 'lt', label: '< (less than)' },
  { value: 'lte', label: '≤' },
  { value: 'between', label: 'between' },
  { value: 'not_between', label: 'not between' },
  { value: 'is_set', label: 'is set' },
  { value: 'is_not_set', label: 'is not set' },
  { value: 'is_date_before', label: 'date before' },
  { value: 'is_date_after', label: 'date after' },
  { value: 'is_date_exact', label: 'date is' },
  { value: 'semver_eq', label: 'version =' },
  { value: 'semver_neq', label: 'version ≠' },
  { value: 'semver_gt', label: 'version >' },
  { value: 'semver_gte', label: 'version ≥' },
  { value: 'semver_lt', label: 'version <' },
  { value: 'semver_lte', label: 'version ≤' },
  { value: 'semver_tilde', label: 'version ~ (patch)' },
  { value: 'semver_caret', label: 'version ^ (minor)' },
  { value: 'semver_wildcard', label: 'version matches (1.2.*)' },
];
const LIST_OPERATORS = new Set(['exact', 'is_not', 'icontains_multi', 'not_icontains_multi']);
const NO_VALUE = new Set(['is_set', 'is_not_set']);
const NUMERIC = new Set(['gt', 'gte', 'lt', 'lte']);

interface FilterDraft {
  key: string;
  type: string;
  group_type_index: string;
  operator: string;
  values: string[];
  value: string;
}
interface ConditionDraft {
  filters: FilterDraft[];
  rollout: number | string;
  variant: string | null;
}
interface VariantDraft {
  key: string;
  name: string;
  rollout: number | string;
  payload: string;
}
export interface FlagDraft {
  key: string;
  name: string;
  active: boolean;
  aggregation: string;
  conditions: ConditionDraft[];
  multivariate: boolean;
  variants: VariantDraft[];
  payload: string;
  continuity: boolean;
}

const payloadText = (payload: unknown) => {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') {
    try {
      return JSON.stringify(JSON.parse(payload), null, 2);
    } catch {
      return JSON.stringify(payload);
    }
  }
  return JSON.stringify(payload, null, 2);
};

const filterDraft = (p: PropertyFilter): FilterDraft => ({
  key: p.key ?? '',
  type: p.type === 'group' ? 'group' : 'person',
  group_type_index: String(p.group_type_index ?? 0),
  operator: p.operator ?? 'exact',
  values: Array.isArray(p.value) ? p.value.map(String) : p.value === undefined || p.value === null ? [] : [String(p.value)],
  value: Array.isArray(p.value) ? JSON.stringify(p.value) : p.value === undefined || p.value === null ? '' : String(p.value),
});

/** A flag as the form edits it. */
export function toDraft(flag?: FeatureFlag): FlagDraft {
  const f: FlagFilters = flag?.filters ?? {};
  const variants = f.multivariate?.variants ?? [];
  return {
    key: flag?.key ?? '',
    name: flag?.name ?? '',
    active: flag?.active ?? true,
    aggregation: f.aggregation_group_type_index == null ? 'person' : String(f.aggregation_group_type_index),
    conditions: (Array.isArray(f.groups) ? f.groups : flag ? [] : [{ properties: [], rollout_percentage: 100 }]).map((g: Condition) => ({
      filters: (Array.isArray(g.properties) ? g.properties : []).map(filterDraft),
      rollout: g.rollout_percentage ?? 100,
      variant: g.variant ?? null,
    })),
    multivariate: variants.length > 0,
    variants: variants.map((v: Variant) => ({ key: v.key, name: v.name ?? '', rollout: v.rollout_percentage, payload: payloadText(f.payloads?.[v.key]) })),
    payload: payloadText(f.payloads?.['true']),
    continuity: flag?.ensure_experience_continuity ?? false,
  };
}

function filterValue(f: FilterDraft): unknown {
  if (NO_VALUE.has(f.operator)) return f.operator;
  if (LIST_OPERATORS.has(f.operator))
    return f.values.length === 1 && f.operator !== 'icontains_multi' && f.operator !== 'not_icontains_multi' ? f.values[0] : f.values;
  if (NUMERIC.has(f.operator) && f.value.trim() !== '' && !Number.isNaN(Number(f.value))) return Number(f.value);
  if (f.operator === 'between' || f.operator === 'not_between') {
    const parsed = parseJson(f.value);
    return parsed.error ? f.value : parsed.value;
  }
  return f.value;
}

/** The body the API takes, or the field errors that keep the form from being sent. */
export function fromDraft(d: FlagDraft): { body?: Record<string, unknown>; errors?: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!d.key.trim()) errors.key = 'Enter a key: it is what your code asks for.';
  else if (!/^[\w-]+$/.test(d.key.trim())) errors.key = 'Only letters, numbers, hyphens (-) and underscores (_), no spaces.';
  const payloads: Record<string, string> = {};
  if (d.multivariate) {
    const keys = d.variants.map((v) => v.key.trim());
    if (d.variants.length < 2) errors.variants = 'Add at least two variants, or turn off multiple variants.';
    else if (keys.some((k) => !k)) errors.variants = 'Every variant needs a key.';
    else if (new Set(keys).size !== keys.length) errors.variants = 'Variant keys must be different.';
    else if (keys.some((k) => !/^[\w-]+$/.test(k))) errors.variants = 'Variant keys take letters, numbers, hyphens and underscores only.';
    const sum = d.variants.reduce((acc, v) => acc + (Number(v.rollout) || 0), 0);
    if (!errors.variants && Math.abs(sum - 100) > 1e-9) errors.variants = `Variant percentages must add up to 100 (now ${round(sum)}).`;
    d.variants.forEach((v, i) => {
      const parsed = parseJson(v.payload);
      if (parsed.error) errors[`payload-${i}`] = parsed.error;
      else if (parsed.value !== undefined) payloads[v.key.trim()] = JSON.stringify(parsed.value);
    });
  } else {
    const parsed = parseJson(d.payload);
    if (parsed.error) errors.payload = parsed.error;
    else if (parsed.value !== undefined) payloads.true = JSON.stringify(parsed.value);
  }
  d.conditions.forEach((c, i) => {
    const pct = Number(c.rollout);
    if (c.rollout === '' || Number.isNaN(pct) || pct < 0 || pct > 100) errors[`rollout-${i}`] = 'A percentage from 0 to 100.';
    c.filters.forEach((f, j) => {
      if (!f.key.trim()) errors[`filter-${i}-${j}`] = 'Name the property this filter reads.';
      else if (!NO_VALUE.has(f.operator) && (LIST_OPERATORS.has(f.operator) ? f.values.length === 0 : f.value.trim() === ''))
        errors[`filter-${i}-${j}`] = 'Enter a value to compare with.';
    });
  });
  if (Object.keys(errors).length) return { errors };
  const aggregation = d.aggregation === 'person' ? null : Number(d.aggregation);
  const filters: FlagFilters = {
    aggregation_group_type_index: aggregation,
    groups: d.conditions.map((c) => ({
      properties: c.filters.map((f) => ({
        key: f.key.trim(),
        type: aggregation === null ? f.type : 'group',
        operator: f.operator,
        value: filterValue(f),
        ...(f.type === 'group' || aggregation !== null ? { group_type_index: aggregation ?? Number(f.group_type_index) } : {}),
      })),
      rollout_percentage: Number(c.rollout),
      ...(d.multivariate && c.variant ? { variant: c.variant } : {}),
    })),
    multivariate: d.multivariate
      ? { variants: d.variants.map((v) => ({ key: v.key.trim(), ...(v.name ? { name: v.name } : {}), rollout_percentage: Number(v.rollout) })) }
      : null,
    payloads,
  };
  return { body: { key: d.key.trim(), name: d.name, active: d.active, filters, ensure_experience_continuity: d.continuity } };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Where an API error's `attr` belongs in this form. */
export const flagFieldOf = (attr: string) =>
  attr === 'key'
    ? 'key'
    : attr === 'name'
      ? 'name'
      : attr.startsWith('filters__multivariate')
        ? 'variants'
        : attr.startsWith('filters__groups')
          ? 'conditions'
          : attr === 'filters'
            ? 'filters'
            : undefined;

export function FlagForm({
  initial,
  onSave,
  onDelete,
  readOnly,
}: {
  initial: FlagDraft;
  onSave: (body: Record<string, unknown>) => Promise<void>;
  onDelete?: () => void;
  readOnly?: boolean;
}) {
  const [d, setD] = useState(initial);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(flagFieldOf);
  const update = (patch: Partial<FlagDraft>) => setD((prev) => ({ ...prev, ...patch }));
  const setCondition = (i: number, patch: Partial<ConditionDraft>) => update({ conditions: d.conditions.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  const setVariant = (i: number, patch: Partial<VariantDraft>) => update({ variants: d.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) });
  const variantSum = round(d.variants.reduce((acc, v) => acc + (Number(v.rollout) || 0), 0));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    const { body, errors: invalid } = fromDraft(d);
    if (invalid) {
      for (const [field, message] of Object.entries(invalid)) errors.set(field, message);
      return;
    }
    setBusy(true);
    try {
      await onSave(body!);
    } catch (error) {
      errors.fromError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          {errors.general && (
            <Alert color="red" role="alert" className="wrap-anywhere">
              {errors.general}
            </Alert>
          )}
          <Card withBorder padding="lg">
            <Stack gap="md">
              <TextInput
                label="Key"
                description="What your code asks for, e.g. new-checkout. Letters, numbers, - and _."
                value={d.key}
                onChange={(e) => {
                  update({ key: e.currentTarget.value });
                  errors.clear('key');
                }}
                error={errors.field('key')}
                maxLength={400}
                classNames={{ input: 'mono' }}
                required
              />
              <Textarea
                label="Description"
                description="What the flag is for, for your team."
                value={d.name}
                onChange={(e) => {
                  update({ name: e.currentTarget.value });
                  errors.clear('name');
                }}
                error={errors.field('name')}
                autosize
                minRows={2}
                maxRows={8}
                maxLength={10_000}
              />
              <Switch
                label="Active"
                description="An inactive flag is false for everyone."
                checked={d.active}
                onChange={(e) => update({ active: e.currentTarget.checked })}
              />
            </Stack>
          </Card>

          <Card withBorder padding="lg">
            <Stack gap="md">
              <Group justify="space-between" wrap="wrap">
                <div>
                  <Title order={2} size="h4">
                    Release conditions
                  </Title>
                  <Text size="sm" c="dimmed">
                    A user gets the flag when they match any condition set (all of its filters) and fall within its rollout.
                  </Text>
                </div>
                <Select
                  label="Match by"
                  w={180}
                  data={[{ value: 'person', label: 'Users' }, ...[0, 1, 2, 3, 4].map((i) => ({ value: String(i), label: `Groups (type ${i})` }))]}
                  value={d.aggregation}
                  onChange={(v) => update({ aggregation: v ?? 'person' })}
                  allowDeselect={false}
                />
              </Group>
              {errors.field('conditions') && (
                <Text c="red" size="sm" role="alert" className="wrap-anywhere">
                  {errors.field('conditions')}
                </Text>
              )}
              {d.conditions.length === 0 && (
                <Text size="sm" c="dimmed">
                  No condition set: nobody gets this flag. Add one to release it.
                </Text>
              )}
              {d.conditions.map((c, i) => (
                <Card key={i} withBorder padding="md" bg="var(--mantine-color-default-hover)">
                  <Stack gap="sm">
                    <Group justify="space-between">
                      <Text fw={600} size="sm">
                        Condition set {i + 1}
                      </Text>
                      <Button variant="subtle" color="red" size="compact-sm" onClick={() => update({ conditions: d.conditions.filter((_, j) => j !== i) })}>
                        Remove set {i + 1}
                      </Button>
                    </Group>
                    {c.filters.map((f, j) => (
                      <FilterRow
                        key={j}
                        filter={f}
                        byGroup={d.aggregation !== 'person'}
                        error={errors.field(`filter-${i}-${j}`)}
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
                          No filters: this set matches every {d.aggregation === 'person' ? 'user' : 'group'}.
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
                        error={errors.field(`rollout-${i}`)}
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
                    {d.multivariate && (
                      <Select
                        label="Variant for this set"
                        description="Optional: everyone matching this set gets this variant."
                        w={260}
                        data={[
                          { value: '', label: 'Split by percentages' },
                          ...d.variants.filter((v) => v.key.trim()).map((v) => ({ value: v.key.trim(), label: v.key.trim() })),
                        ]}
                        value={c.variant ?? ''}
                        onChange={(v) => setCondition(i, { variant: v || null })}
                        allowDeselect={false}
                      />
                    )}
                  </Stack>
                </Card>
              ))}
              <Group>
                <Button variant="default" onClick={() => update({ conditions: [...d.conditions, { filters: [], rollout: 100, variant: null }] })}>
                  Add condition set
                </Button>
              </Group>
            </Stack>
          </Card>

          <Card withBorder padding="lg">
            <Stack gap="md">
              <Group justify="space-between" wrap="wrap">
                <div>
                  <Title order={2} size="h4">
                    Variants and payloads
                  </Title>
                  <Text size="sm" c="dimmed">
                    A boolean flag is true or false. With variants, each user gets one variant key; percentages must add up to 100.
                  </Text>
                </div>
                <Switch
                  label="Multiple variants"
                  checked={d.multivariate}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    update({
                      multivariate: on,
                      variants:
                        on && d.variants.length === 0
                          ? [
                              { key: 'control', name: '', rollout: 50, payload: '' },
                              { key: 'test', name: '', rollout: 50, payload: '' },
                            ]
                          : d.variants,
                    });
                    errors.clear('variants');
                  }}
                />
              </Group>
              {d.multivariate ? (
                <Stack gap="sm">
                  {d.variants.map((v, i) => (
                    <Card key={i} withBorder padding="sm">
                      <Group align="flex-start" gap="sm" wrap="wrap">
                        <TextInput
                          label={`Variant ${i + 1} key`}
                          value={v.key}
                          onChange={(e) => setVariant(i, { key: e.currentTarget.value })}
                          w={180}
                          maxLength={400}
                          classNames={{ input: 'mono' }}
                        />
                        <TextInput
                          label={`Variant ${i + 1} name`}
                          value={v.name}
                          onChange={(e) => setVariant(i, { name: e.currentTarget.value })}
                          w={200}
                          maxLength={400}
                        />
                        <NumberInput
                          label={`Variant ${i + 1} percentage`}
                          value={v.rollout}
                          onChange={(value) => setVariant(i, { rollout: value })}
                          min={0}
                          max={100}
                          decimalScale={2}
                          suffix="%"
                          w={150}
                        />
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          mt={26}
                          aria-label={`Remove variant ${i + 1}`}
                          onClick={() => update({ variants: d.variants.filter((_, j) => j !== i) })}
                        >
                          ✕
                        </ActionIcon>
                        <JsonInput
                          label={`Payload of ${v.key || `variant ${i + 1}`} (JSON, optional)`}
                          placeholder='{"color": "blue"}'
                          value={v.payload}
                          onChange={(text) => {
                            setVariant(i, { payload: text });
                            errors.clear(`payload-${i}`);
                          }}
                          error={errors.field(`payload-${i}`)}
                          validationError="Not valid JSON"
                          formatOnBlur
                          autosize
                          minRows={2}
                          maxRows={10}
                          w="100%"
                        />
                      </Group>
                    </Card>
                  ))}
                  <Group justify="space-between">
                    <Group gap="xs">
                      <Button variant="default" size="xs" onClick={() => update({ variants: [...d.variants, { key: '', name: '', rollout: 0, payload: '' }] })}>
                        Add variant
                      </Button>
                      <Button
                        variant="subtle"
                        size="xs"
                        onClick={() => {
                          const n = d.variants.length;
                          const each = Math.floor(10_000 / n) / 100;
                          update({ variants: d.variants.map((v, i) => ({ ...v, rollout: i === n - 1 ? round(100 - each * (n - 1)) : each })) });
                        }}
                      >
                        Distribute equally
                      </Button>
                    </Group>
                    <Text size="sm" c={variantSum === 100 ? 'dimmed' : 'red'} fw={variantSum === 100 ? 400 : 600} aria-live="polite">
                      Total: {variantSum}%{variantSum === 100 ? '' : ' (must be 100)'}
                    </Text>
                  </Group>
                  {errors.field('variants') && (
                    <Text c="red" size="sm" role="alert" className="wrap-anywhere">
                      {errors.field('variants')}
                    </Text>
                  )}
                </Stack>
              ) : (
                <JsonInput
                  label="Payload when true (JSON, optional)"
                  description="Sent to your code with the flag, e.g. a config object."
                  placeholder='{"discount": 10}'
                  value={d.payload}
                  onChange={(text) => {
                    update({ payload: text });
                    errors.clear('payload');
                  }}
                  error={errors.field('payload')}
                  validationError="Not valid JSON"
                  formatOnBlur
                  autosize
                  minRows={3}
                  maxRows={14}
                />
              )}
              {errors.field('filters') && (
                <Text c="red" size="sm" role="alert" className="wrap-anywhere">
                  {errors.field('filters')}
                </Text>
              )}
              <Divider />
              <Switch
                label="Keep the value when a user logs in"
                description="Persists the value across anonymous and identified ids (experience continuity)."
                checked={d.continuity}
                onChange={(e) => update({ continuity: e.currentTarget.checked })}
              />
            </Stack>
          </Card>

          {!readOnly && (
            <Group justify="space-between">
              <Button type="submit" loading={busy}>
                Save
              </Button>
              {onDelete && (
                <Button variant="subtle" color="red" onClick={onDelete}>
                  Delete flag
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}

function FilterRow({
  filter,
  byGroup,
  error,
  onChange,
  onRemove,
}: {
  filter: FilterDraft;
  byGroup: boolean;
  error?: string;
  onChange: (patch: Partial<FilterDraft>) => void;
  onRemove: () => void;
}) {
  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-end" wrap="wrap">
        {!byGroup && (
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
            w={110}
            data={['0', '1', '2', '3', '4']}
            value={filter.group_type_index}
            onChange={(v) => onChange({ group_type_index: v ?? '0' })}
            allowDeselect={false}
          />
        )}
        <TextInput label="Property" placeholder="email" value={filter.key} onChange={(e) => onChange({ key: e.currentTarget.value })} w={180} maxLength={400} />
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
