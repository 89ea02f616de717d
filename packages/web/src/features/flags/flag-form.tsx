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
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { personQueries } from '../persons/api';
import { cohortQueries } from '../cohorts/api';
import { useFormErrors } from '../../components/form-errors';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { ConditionSets } from './condition-sets';
import { flagFieldOf, fromDraft, round, type FlagDraft, type VariantDraft } from './flag-draft';
import { groupTypeOptions } from './filter-row';

/**
 * A flag's settings: key, description, on or off, release conditions (filters offer the project's person property
 * names and cohorts; group types go by name), variants and payloads. Leaving with unsaved changes asks first.
 */
export function FlagForm({
  projectId,
  initial,
  onSave,
  onDelete,
  readOnly,
}: {
  projectId: number;
  initial: FlagDraft;
  onSave: (body: Record<string, unknown>) => Promise<void>;
  /** Resolves whether the flag was deleted (the user may cancel). */
  onDelete?: () => Promise<boolean>;
  readOnly?: boolean;
}) {
  const [d, setD] = useState(initial);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(flagFieldOf);
  const guard = useUnsavedChanges(!readOnly && JSON.stringify(d) !== JSON.stringify(initial));
  const groupTypes = useQuery(personQueries.groupTypes(projectId)).data?.results;
  const propertyNames = useQuery(personQueries.propertyNames(projectId)).data ?? [];
  const cohorts = useQuery(cohortQueries.all(projectId)).data?.results;
  const isNew = !initial.key;
  const update = (patch: Partial<FlagDraft>) => setD((prev) => ({ ...prev, ...patch }));
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
      await guard.saving(() => onSave(body!));
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
                description={
                  isNew ? 'A new flag starts off, false for everyone: turn it on when its conditions are right.' : 'An inactive flag is false for everyone.'
                }
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
                  data={[
                    { value: 'person', label: 'Users' },
                    ...groupTypeOptions(groupTypes, [d.aggregation]).map((o) => ({ value: o.value, label: `Groups: ${o.label}` })),
                  ]}
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
              <ConditionSets
                conditions={d.conditions}
                onChange={(conditions) => update({ conditions })}
                aggregation={d.aggregation}
                groupTypes={groupTypes}
                propertyNames={propertyNames}
                cohorts={cohorts ?? []}
                variants={d.multivariate ? d.variants.map((v) => v.key.trim()).filter(Boolean) : undefined}
                errorOf={errors.field}
              />
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
                <Button variant="subtle" color="red" onClick={() => void guard.saving(onDelete).catch(() => undefined)}>
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
