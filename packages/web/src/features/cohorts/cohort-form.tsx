import { Alert, Button, Card, FileInput, Group, JsonInput, SegmentedControl, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useFormErrors } from '../../components/form-errors';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import type { DistinctIds } from './api';
import { cohortFieldOf, fromCohortDraft, parseIds, type CohortDraft } from './cohort-draft';
import { CriteriaEditor } from './criteria-editor';

/**
 * A cohort's settings: name, description and who is in it. A new cohort is dynamic (criteria on person properties,
 * events done, flag variants got, other cohorts) or static (distinct ids pasted, or a CSV file); a static cohort's ids
 * change on its People tab afterwards. Leaving with unsaved changes asks first.
 */
export function CohortForm({
  projectId,
  cohortId,
  initial,
  onSave,
  onDelete,
  readOnly,
}: {
  projectId: number;
  /** The cohort edited (none for a new one). */
  cohortId?: number;
  initial: CohortDraft;
  onSave: (body: Record<string, unknown>, ids?: DistinctIds) => Promise<void>;
  /** Resolves whether the cohort was deleted (the user may cancel). */
  onDelete?: () => Promise<boolean>;
  readOnly?: boolean;
}) {
  const [d, setD] = useState(initial);
  const [source, setSource] = useState<'paste' | 'file'>('paste');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(cohortFieldOf);
  const guard = useUnsavedChanges(!readOnly && (JSON.stringify(d) !== JSON.stringify(initial) || file !== null));
  const isNew = cohortId === undefined;
  const update = (patch: Partial<CohortDraft>) => setD((prev) => ({ ...prev, ...patch }));
  const pasted = parseIds(d.ids).length;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    const { body, errors: invalid } = fromCohortDraft(d);
    if (invalid) {
      for (const [field, message] of Object.entries(invalid)) errors.set(field, message);
      return;
    }
    let ids: DistinctIds | undefined;
    if (isNew && d.isStatic) {
      if (source === 'file' && !file) return errors.set('ids', 'Choose a CSV file, or paste the ids.');
      ids = source === 'file' ? { csv: await file!.text() } : { ids: parseIds(d.ids) };
    }
    setBusy(true);
    try {
      await guard.saving(() => onSave({ ...body!, ...(isNew && d.isStatic ? { is_static: true } : {}) }, ids));
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
                label="Name"
                description="What your team calls these people, e.g. Beta testers."
                value={d.name}
                onChange={(e) => {
                  update({ name: e.currentTarget.value });
                  errors.clear('name');
                }}
                error={errors.field('name')}
                maxLength={400}
                required
              />
              <Textarea
                label="Description"
                value={d.description}
                onChange={(e) => update({ description: e.currentTarget.value })}
                autosize
                minRows={2}
                maxRows={6}
                maxLength={10_000}
              />
              {isNew && (
                <Stack gap={4}>
                  <Text size="sm" fw={500} id="cohort-type">
                    Who is in it
                  </Text>
                  <SegmentedControl
                    aria-labelledby="cohort-type"
                    data={[
                      { value: 'dynamic', label: 'People matching criteria' },
                      { value: 'static', label: 'A list of distinct IDs' },
                    ]}
                    value={d.isStatic ? 'static' : 'dynamic'}
                    onChange={(v) => update({ isStatic: v === 'static' })}
                    style={{ alignSelf: 'flex-start' }}
                  />
                </Stack>
              )}
            </Stack>
          </Card>

          {isNew && d.isStatic && (
            <Card withBorder padding="lg">
              <Stack gap="md">
                <div>
                  <Title order={2} size="h4">
                    Distinct IDs
                  </Title>
                  <Text size="sm" c="dimmed">
                    Up to 1,000,000. You can add and remove IDs later on the cohort's People tab.
                  </Text>
                </div>
                <SegmentedControl
                  aria-label="Where the IDs come from"
                  data={[
                    { value: 'paste', label: 'Paste IDs' },
                    { value: 'file', label: 'Upload a CSV file' },
                  ]}
                  value={source}
                  onChange={(v) => {
                    setSource(v as 'paste' | 'file');
                    errors.clear('ids');
                  }}
                  style={{ alignSelf: 'flex-start' }}
                />
                {source === 'paste' ? (
                  <Textarea
                    label="Distinct IDs"
                    description={`One a line, or separated by commas.${pasted ? ` ${pasted.toLocaleString()} distinct ID${pasted === 1 ? '' : 's'}.` : ''}`}
                    placeholder={'user-1\nuser-2'}
                    value={d.ids}
                    onChange={(e) => {
                      update({ ids: e.currentTarget.value });
                      errors.clear('ids');
                    }}
                    error={errors.field('ids')}
                    autosize
                    minRows={5}
                    maxRows={16}
                    classNames={{ input: 'mono' }}
                  />
                ) : (
                  <FileInput
                    label="CSV file"
                    description="One distinct ID a line, or a column named distinct_id."
                    accept=".csv,text/csv,text/plain"
                    value={file}
                    onChange={(f) => {
                      setFile(f);
                      errors.clear('ids');
                    }}
                    error={errors.field('ids')}
                    clearable
                    w={{ base: '100%', sm: 420 }}
                  />
                )}
              </Stack>
            </Card>
          )}

          {!d.isStatic && (
            <Card withBorder padding="lg">
              <Stack gap="md">
                <div>
                  <Title order={2} size="h4">
                    Criteria
                  </Title>
                  <Text size="sm" c="dimmed">
                    A person is in the cohort when they match every criterion of any group. Events count from when they are captured, so membership follows at
                    once.
                  </Text>
                </div>
                {errors.field('criteria') && (
                  <Text c="red" size="sm" role="alert">
                    {errors.field('criteria')}
                  </Text>
                )}
                {errors.field('filters') && (
                  <Text c="red" size="sm" role="alert" className="wrap-anywhere">
                    {errors.field('filters')}
                  </Text>
                )}
                {d.json === null ? (
                  <CriteriaEditor
                    projectId={projectId}
                    cohortId={cohortId}
                    groups={d.groups}
                    onChange={(groups) => update({ groups })}
                    errorOf={errors.field}
                  />
                ) : (
                  <JsonInput
                    label="Filters (JSON)"
                    description="These criteria were made through the API in a shape this form cannot show; edit them as JSON."
                    value={d.json}
                    onChange={(json) => {
                      update({ json });
                      errors.clear('filters');
                    }}
                    validationError="Not valid JSON"
                    autosize
                    minRows={6}
                    maxRows={24}
                  />
                )}
              </Stack>
            </Card>
          )}

          {!readOnly && (
            <Group justify="space-between">
              <Button type="submit" loading={busy}>
                {isNew ? 'Create cohort' : 'Save'}
              </Button>
              {onDelete && (
                <Button variant="subtle" color="red" onClick={() => void guard.saving(onDelete).catch(() => undefined)}>
                  Delete cohort
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
