import { Alert, Anchor, Button, Card, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { STAGES, type EarlyAccessFeature, type FeatureFlag, type Stage } from '../../api/types';
import { useFormErrors } from '../../components/form-errors';
import { parseJson } from '../../components/format';
import { describeError } from '../../components/states';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { confirmStageChange, STAGE_INFO } from './stages';
import { flagQueries } from '../flags/api';
import { earlyAccessQueries } from './api';
import { useQuery } from '@tanstack/react-query';

/** The payload text as the API takes it: an object, nothing (empty text), or an error for the field. */
export function parsePayload(text: string): { value?: Record<string, unknown>; error?: string } {
  const parsed = parseJson(text);
  if (parsed.error) return { error: parsed.error };
  if (parsed.value === undefined) return {};
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
    return { error: 'The payload must be a JSON object, like {"beta_banner": true}.' };
  return { value: parsed.value as Record<string, unknown> };
}

/**
 * The flags a new feature can be linked to: not linked to another feature yet, and without variants (the service
 * refuses both).
 */
export function linkableFlags(flags: FeatureFlag[], features: EarlyAccessFeature[]): FeatureFlag[] {
  const linked = new Set(features.flatMap((f) => (f.feature_flag ? [f.feature_flag.id] : [])));
  return flags.filter((f) => !linked.has(f.id) && !f.filters.multivariate?.variants?.length);
}

/** A feature's editable fields: a new one's (with its flag) or an existing one's. */
export function FeatureForm({
  projectId,
  feature,
  onSave,
  onDelete,
  readOnly,
}: {
  projectId: number;
  feature?: EarlyAccessFeature;
  onSave: (body: Record<string, unknown>) => Promise<void>;
  /** Resolves whether the feature was deleted (the user may cancel). */
  onDelete?: () => Promise<boolean>;
  readOnly?: boolean;
}) {
  const initial = {
    name: feature?.name ?? '',
    description: feature?.description ?? '',
    stage: feature?.stage ?? ('draft' as Stage),
    docs: feature?.documentation_url ?? '',
    flagId: '',
    payload: feature?.payload ? JSON.stringify(feature.payload, null, 2) : '',
  };
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors((attr) =>
    ['name', 'description', 'stage', 'documentation_url', 'payload'].includes(attr) ? attr : attr.startsWith('feature_flag') ? 'flag' : undefined,
  );
  const guard = useUnsavedChanges(!readOnly && (Object.keys(initial) as (keyof typeof initial)[]).some((k) => values[k] !== initial[k]));
  const flags = useQuery({ ...flagQueries.all(projectId), enabled: !feature });
  const features = useQuery(earlyAccessQueries.list(projectId));
  /** Sets a field; its error (from an earlier save) goes, as the user is fixing it. */
  const change = <K extends keyof typeof initial>(key: K, field: string, value: (typeof initial)[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    errors.clear(field);
  };
  const checkPayload = () => {
    const { error } = parsePayload(values.payload);
    if (error) errors.set('payload', error);
    return !error;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    const name = values.name.trim();
    const docs = values.docs.trim();
    if (!name) return errors.set('name', 'Give the feature a name your users will understand.');
    if (docs && !/^https?:\/\/\S+$/i.test(docs)) return errors.set('documentation_url', 'Enter a full link, starting with https://.');
    if (!checkPayload()) return;
    const payload = parsePayload(values.payload).value;
    if (feature && !(await confirmStageChange(feature.name, feature.stage, values.stage))) return;
    setBusy(true);
    try {
      await guard.saving(() =>
        onSave({
          name,
          description: values.description,
          stage: values.stage,
          documentation_url: docs,
          ...(payload !== undefined || feature?.payload ? { payload: payload ?? null } : {}),
          ...(feature ? {} : { feature_flag_id: values.flagId ? Number(values.flagId) : null }),
        }),
      );
    } catch (error) {
      errors.fromError(error);
    } finally {
      setBusy(false);
    }
  };

  const choices = linkableFlags(flags.data?.results ?? [], features.data?.results ?? []);
  const listError = flags.error ?? features.error;
  return (
    <form onSubmit={submit} noValidate>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Card withBorder padding="lg">
          <Stack gap="md">
            {errors.general && (
              <Alert color="red" role="alert" className="wrap-anywhere">
                {errors.general}
              </Alert>
            )}
            <TextInput
              label="Name"
              description="Shown to your users in the opt-in list."
              value={values.name}
              onChange={(e) => change('name', 'name', e.currentTarget.value)}
              error={errors.field('name')}
              maxLength={200}
              required
            />
            <Textarea
              label="Description"
              description="What the feature does, for your users."
              value={values.description}
              onChange={(e) => change('description', 'description', e.currentTarget.value)}
              error={errors.field('description')}
              autosize
              minRows={2}
              maxRows={10}
              maxLength={100_000}
            />
            <Select
              label="Stage"
              data={STAGES.map((s) => ({ value: s, label: STAGE_INFO[s].label }))}
              value={values.stage}
              onChange={(v) => v && change('stage', 'stage', v as Stage)}
              description={STAGE_INFO[values.stage].help}
              error={errors.field('stage')}
              allowDeselect={false}
              w={{ base: '100%', sm: 320 }}
            />
            <TextInput
              label="Documentation URL"
              placeholder="https://docs.example.com/new-feature"
              value={values.docs}
              onChange={(e) => change('docs', 'documentation_url', e.currentTarget.value)}
              error={errors.field('documentation_url')}
              maxLength={800}
            />
            {feature ? (
              <Text size="sm">
                Feature flag:{' '}
                {feature.feature_flag ? (
                  <Anchor component={Link} to={`/project/${projectId}/feature_flags/${feature.feature_flag.id}`} className="mono">
                    {feature.feature_flag.key}
                  </Anchor>
                ) : (
                  'none'
                )}
              </Text>
            ) : (
              <Select
                label="Feature flag"
                description="The flag that turns the feature on for the people who opt in. Flags with variants, and flags another feature uses, cannot be linked."
                data={[{ value: '', label: 'Create a new flag named after the feature' }, ...choices.map((f) => ({ value: String(f.id), label: f.key }))]}
                value={values.flagId}
                onChange={(v) => {
                  change('flagId', 'flag', v ?? '');
                  // The name's error may be that its key is taken by a flag: picking a flag answers it.
                  errors.clear('name');
                }}
                searchable
                allowDeselect={false}
                error={errors.field('flag') ?? (listError ? describeError(listError) : undefined)}
                w={{ base: '100%', sm: 420 }}
              />
            )}
            <Textarea
              label="Payload (JSON object, optional)"
              description="Extra data your app receives with the feature."
              placeholder='{"beta_banner": true}'
              value={values.payload}
              onChange={(e) => change('payload', 'payload', e.currentTarget.value)}
              onBlur={checkPayload}
              error={errors.field('payload')}
              classNames={{ input: 'mono' }}
              autoComplete="off"
              spellCheck={false}
              autosize
              minRows={2}
              maxRows={12}
            />
            {!readOnly && (
              <Group justify="space-between">
                <Button type="submit" loading={busy}>
                  Save
                </Button>
                {onDelete && (
                  <Button variant="subtle" color="red" onClick={() => void guard.saving(onDelete).catch(() => undefined)}>
                    Delete feature
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        </Card>
      </fieldset>
    </form>
  );
}
