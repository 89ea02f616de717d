import {
  ActionIcon,
  Alert,
  Autocomplete,
  Button,
  Card,
  Checkbox,
  Fieldset,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useProjectId } from '../../api/hooks';
import { useFormErrors } from '../../components/form-errors';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { launchChanges } from './flag-changes';
import { FlagChanges } from './flag-changes-dialog';
import { experimentFlagOptions } from './flag-options';
import type { ExperimentVariant, Metric } from './types';
import { flagQueries } from '../flags/api';
import { eventQueries } from '../events/api';
import { experimentQueries } from './api';

interface MetricDraft {
  kind: 'conversion' | 'mean';
  event: string;
  window_days: number | string;
  property: string;
}

const newMetric = (): MetricDraft => ({ kind: 'conversion', event: '', window_days: 14, property: '' });

/** A flag key made from a name: "New checkout" → "new-checkout". */
const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);

/** An even split of 100 over n variants in whole percentages, the remainder on the first ones (3 → 34, 33, 33). */
function evenSplit(n: number): number[] {
  const base = Math.floor(100 / n);
  return Array.from({ length: n }, (_, i) => base + (i < 100 - base * n ? 1 : 0));
}

const DEFAULT_SPLIT: ExperimentVariant[] = [
  { key: 'control', rollout_percentage: 50 },
  { key: 'test', rollout_percentage: 50 },
];

/**
 * The form of a new experiment: name, its flag (a new one, or an existing multivariate one whose variants and split it
 * starts from), variants and their split, metrics (the first is the primary; event names offered from the project's
 * events). An error of the API appears next to the field its `attr` names (`variants`, `metrics__1__event`, …).
 * Launching at once on an existing flag first shows what changes on the flag and asks to confirm. Leaving with unsaved
 * changes asks first.
 */
export function ExperimentForm({ onSave }: { onSave: (body: Record<string, unknown>) => Promise<void> }) {
  const projectId = useProjectId();
  const search = useSearch({ strict: false }) as { flag?: string };
  const flags = useQuery(flagQueries.multivariant(projectId));
  // A flag already in a draft or running experiment cannot take another one.
  const experiments = useQuery(experimentQueries.all(projectId));
  const eventNames = useQuery(eventQueries.names(projectId));
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [flagKey, setFlagKey] = useState('');
  const [keyTouched, setKeyTouched] = useState(false);
  const [existingId, setExistingId] = useState<string | null>(search.flag ?? null);
  const [mode, setMode] = useState<'new' | 'existing'>(search.flag ? 'existing' : 'new');
  const [variants, setVariants] = useState<ExperimentVariant[]>(DEFAULT_SPLIT);
  const [startedFrom, setStartedFrom] = useState<string | null>(null);
  const [metrics, setMetrics] = useState<MetricDraft[]>([newMetric()]);
  const [launch, setLaunch] = useState(false);
  const [confirming, setConfirming] = useState<Record<string, unknown> | null>(null);
  const [busy, setBusy] = useState(false);
  const existing = mode === 'existing' ? flags.data?.results.find((f) => String(f.id) === existingId) : undefined;
  // The variants and split start from the chosen flag's (once per choice: edits stay).
  if (existing && startedFrom !== String(existing.id)) {
    setStartedFrom(String(existing.id));
    setVariants((existing.filters.multivariate?.variants ?? []).map((v) => ({ key: v.key, rollout_percentage: v.rollout_percentage })));
  }
  const errors = useFormErrors((attr) => {
    if (['name', 'description', 'feature_flag_key', 'variants', 'metrics'].includes(attr)) return attr;
    const metric = /^metrics__(\d+)__(\w+)$/.exec(attr);
    if (metric) return `metrics.${metric[1]}.${metric[2] === 'kind' || metric[2] === 'window_days' || metric[2] === 'property' ? metric[2] : 'event'}`;
    if (attr.startsWith('variants')) return 'variants';
    return undefined;
  });
  const key = mode === 'existing' ? (existing?.key ?? '') : keyTouched ? flagKey : slug(name);
  const startVariants = existing ? (existing.filters.multivariate?.variants ?? []) : DEFAULT_SPLIT;
  const guard = useUnsavedChanges(
    name.trim() !== '' ||
      description.trim() !== '' ||
      (mode === 'new' && keyTouched) ||
      launch ||
      JSON.stringify(variants) !== JSON.stringify(startVariants.map((v) => ({ key: v.key, rollout_percentage: v.rollout_percentage }))) ||
      JSON.stringify(metrics) !== JSON.stringify([newMetric()]),
  );
  const sum = variants.reduce((total, v) => total + (Number(v.rollout_percentage) || 0), 0);

  const setVariant = (i: number, patch: Partial<ExperimentVariant>) => {
    errors.clear('variants');
    setVariants((vs) => vs.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  };
  const split = (list: ExperimentVariant[]) => {
    const shares = evenSplit(list.length);
    return list.map((v, i) => ({ ...v, rollout_percentage: shares[i]! }));
  };
  const setMetric = (i: number, patch: Partial<MetricDraft>) => {
    for (const field of ['event', 'kind', 'window_days', 'property']) errors.clear(`metrics.${i}.${field}`);
    setMetrics((ms) => ms.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    if (!name.trim()) return errors.set('name', 'Give the experiment a name, like "One-page checkout".');
    if (!key)
      return errors.set(
        'feature_flag_key',
        mode === 'existing' ? 'Choose the flag that splits people.' : 'Enter the key of the flag that splits people, like "one-page-checkout".',
      );
    if (Math.abs(sum - 100) > 1e-9) return errors.set('variants', `The split must add up to 100 % (it adds up to ${sum} %).`);
    const blank = metrics.findIndex((m) => !m.event.trim());
    if (blank >= 0) return errors.set(`metrics.${blank}.event`, 'Enter the event this metric counts, like "purchase".');
    const body: Record<string, unknown> = {
      name: name.trim(),
      description,
      feature_flag_key: key,
      variants: variants.map((v) => ({ key: v.key.trim(), rollout_percentage: Number(v.rollout_percentage) })),
      metrics: metrics.map((m): Metric =>
        m.kind === 'conversion'
          ? { kind: 'conversion', event: m.event.trim(), window_days: Number(m.window_days) || 14 }
          : { kind: 'mean', event: m.event.trim(), ...(m.property.trim() ? { property: m.property.trim() } : {}) },
      ),
      ...(launch ? { status: 'running' } : {}),
    };
    // Launching at once changes an existing flag: show what changes, and ask first.
    if (launch && existing) setConfirming(body);
    else await save(body);
  };
  const save = async (body: Record<string, unknown>) => {
    setBusy(true);
    try {
      await guard.saving(() => onSave(body));
    } catch (error) {
      errors.fromError(error);
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        {errors.general && (
          <Alert color="red" role="alert" className="wrap-anywhere">
            {errors.general}
          </Alert>
        )}
        <Card withBorder padding="lg">
          <Stack gap="md">
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                errors.clear('name');
              }}
              error={errors.field('name')}
              maxLength={400}
              required
            />
            <Textarea
              label="Description"
              description="What you change, and what you expect it to do."
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={errors.field('description')}
              autosize
              minRows={2}
              maxRows={8}
              maxLength={100_000}
            />
            <Stack gap={6}>
              <Text size="sm" fw={500} id="flag-mode">
                Feature flag
              </Text>
              <SegmentedControl
                aria-labelledby="flag-mode"
                w={{ base: '100%', sm: 420 }}
                data={[
                  { value: 'new', label: 'A new flag' },
                  { value: 'existing', label: 'An existing flag' },
                ]}
                value={mode}
                onChange={(v) => {
                  setMode(v as 'new' | 'existing');
                  errors.clear('feature_flag_key');
                  if (v === 'new') {
                    setStartedFrom(null);
                    setVariants(DEFAULT_SPLIT);
                  }
                }}
              />
            </Stack>
            {mode === 'new' ? (
              <TextInput
                label="Feature flag key"
                description="A new multivariate flag with this key is made, off for everyone until you launch."
                value={key}
                onChange={(e) => {
                  setKeyTouched(true);
                  setFlagKey(e.currentTarget.value);
                  errors.clear('feature_flag_key');
                }}
                error={errors.field('feature_flag_key')}
                classNames={{ input: 'mono' }}
                maxLength={400}
                required
                w={{ base: '100%', sm: 420 }}
              />
            ) : (
              <Select
                label="Existing flag"
                description="A multivariate flag with a control variant. It stays exactly as it is until you launch: whoever it serves now keeps getting it."
                placeholder={flags.isPending ? 'Loading flags…' : 'Choose a flag'}
                searchable
                nothingFoundMessage="No multivariate flag has that key"
                data={experimentFlagOptions(flags.data?.results ?? [], experiments.data?.results ?? [])}
                value={existingId}
                onChange={(v) => {
                  setExistingId(v);
                  errors.clear('feature_flag_key');
                }}
                error={errors.field('feature_flag_key') ?? (flags.error || experiments.error ? 'Could not load the flags.' : undefined)}
                classNames={{ input: 'mono', option: 'mono' }}
                w={{ base: '100%', sm: 420 }}
              />
            )}
          </Stack>
        </Card>

        <Card withBorder padding="lg" component="fieldset" aria-describedby="variants-help" style={{ margin: 0, minWidth: 0 }}>
          <Stack gap="sm">
            <Title order={2} size="h4" component="legend" style={{ padding: 0 }}>
              Variants and split
            </Title>
            <Text size="sm" c="dimmed" id="variants-help">
              One variant must be <code>control</code>: the others are compared with it. The split is the share of people who get each variant
              {existing ? (
                <>
                  {' '}
                  (from <code>{existing.key}</code>; the flag takes any change you make here when you launch)
                </>
              ) : null}
              .
            </Text>
            {variants.map((v, i) => (
              <Group key={i} align="flex-end" gap="sm" wrap="nowrap">
                <TextInput
                  label={`Variant ${i + 1} key`}
                  value={v.key}
                  onChange={(e) => setVariant(i, { key: e.currentTarget.value })}
                  classNames={{ input: 'mono' }}
                  maxLength={200}
                  style={{ flex: 1, maxWidth: 320 }}
                />
                <NumberInput
                  label={`Variant ${i + 1} share (%)`}
                  value={v.rollout_percentage}
                  onChange={(value) => setVariant(i, { rollout_percentage: Number(value) || 0 })}
                  min={0}
                  max={100}
                  step={1}
                  w={170}
                />
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="lg"
                  mb={2}
                  aria-label={`Remove variant ${v.key || i + 1}`}
                  disabled={variants.length <= 2}
                  onClick={() => setVariants((vs) => split(vs.filter((_, j) => j !== i)))}
                >
                  ✕
                </ActionIcon>
              </Group>
            ))}
            <Text size="sm" c={Math.abs(sum - 100) > 1e-9 ? 'red' : 'dimmed'} aria-live="polite">
              Total: {sum} %
            </Text>
            {errors.field('variants') && (
              <Text size="sm" c="red" role="alert" className="wrap-anywhere">
                {errors.field('variants')}
              </Text>
            )}
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                disabled={variants.length >= 20}
                onClick={() => setVariants((vs) => split([...vs, { key: `test-${vs.length}`, rollout_percentage: 0 }]))}
              >
                Add variant
              </Button>
              <Button variant="subtle" size="xs" onClick={() => setVariants((vs) => split(vs))}>
                Split evenly
              </Button>
            </Group>
          </Stack>
        </Card>

        <Card withBorder padding="lg" component="fieldset" aria-describedby="metrics-help" style={{ margin: 0, minWidth: 0 }}>
          <Stack gap="sm">
            <Title order={2} size="h4" component="legend" style={{ padding: 0 }}>
              Metrics
            </Title>
            <Text size="sm" c="dimmed" id="metrics-help">
              The first is the primary metric, the one you decide on; the others are secondary. Only events a person does after their first exposure count.
            </Text>
            {errors.field('metrics') && (
              <Text size="sm" c="red" role="alert">
                {errors.field('metrics')}
              </Text>
            )}
            {metrics.map((m, i) => {
              const label = i === 0 ? 'Primary metric' : `Secondary metric ${i}`;
              return (
                <Fieldset key={i} legend={label} radius="sm" p="sm" pt={4} style={{ border: '1px solid var(--mantine-color-default-border)' }}>
                  <Stack gap="xs">
                    {i > 0 && (
                      <Group justify="flex-end">
                        <Button variant="subtle" color="red" size="compact-xs" onClick={() => setMetrics((ms) => ms.filter((_, j) => j !== i))}>
                          Remove {label.toLowerCase()}
                        </Button>
                      </Group>
                    )}
                    <Group align="flex-start" gap="sm" wrap="wrap">
                      <NativeSelect
                        label="Kind"
                        data={[
                          { value: 'conversion', label: 'Conversion' },
                          { value: 'mean', label: 'Mean per person' },
                        ]}
                        value={m.kind}
                        onChange={(e) => setMetric(i, { kind: e.currentTarget.value as MetricDraft['kind'] })}
                        error={errors.field(`metrics.${i}.kind`)}
                        w={{ base: '100%', sm: 200 }}
                      />
                      <Autocomplete
                        label="Event"
                        placeholder="purchase"
                        description="One your app sends, or a new one"
                        data={eventNames.data?.results ?? []}
                        limit={50}
                        value={m.event}
                        onChange={(value) => setMetric(i, { event: value })}
                        error={errors.field(`metrics.${i}.event`)}
                        maxLength={400}
                        classNames={{ input: 'mono', option: 'mono' }}
                        w={{ base: '100%', sm: 240 }}
                      />
                      {m.kind === 'conversion' ? (
                        <NumberInput
                          label="Window (days)"
                          description="After exposure"
                          value={m.window_days}
                          onChange={(value) => setMetric(i, { window_days: value })}
                          error={errors.field(`metrics.${i}.window_days`)}
                          min={1}
                          max={365}
                          step={1}
                          allowDecimal={false}
                          w={{ base: '100%', sm: 170 }}
                        />
                      ) : (
                        <TextInput
                          label="Property to sum"
                          description="Empty: count the events"
                          placeholder="amount"
                          value={m.property}
                          onChange={(e) => setMetric(i, { property: e.currentTarget.value })}
                          error={errors.field(`metrics.${i}.property`)}
                          maxLength={400}
                          classNames={{ input: 'mono' }}
                          w={{ base: '100%', sm: 200 }}
                        />
                      )}
                    </Group>
                  </Stack>
                </Fieldset>
              );
            })}
            <Group>
              <Button variant="default" size="xs" disabled={metrics.length >= 50} onClick={() => setMetrics((ms) => [...ms, newMetric()])}>
                Add secondary metric
              </Button>
            </Group>
          </Stack>
        </Card>

        <Checkbox
          label="Launch now"
          description={
            existing
              ? `Otherwise it is saved as a draft, and ${existing.key} stays exactly as it is until you launch.`
              : 'Otherwise it is saved as a draft: its new flag stays off for everyone until you launch it.'
          }
          checked={launch}
          onChange={(e) => setLaunch(e.currentTarget.checked)}
        />
        <Group>
          <Button type="submit" loading={busy}>
            Create experiment
          </Button>
        </Group>
      </Stack>
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title="Create and launch" size="lg">
        <Stack gap="md">
          {existing && <FlagChanges flagKey={existing.key} changes={launchChanges(existing, variants)} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button onClick={() => confirming && void save(confirming)} loading={busy}>
              Create and launch
            </Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}
