import { Alert, Button, Group, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useFormErrors } from '../../components/form-errors';
import { parseJson } from '../../components/format';
import type { PromptInput } from './api';

/**
 * A prompt version's fields: its text, its model settings (JSON, optional) and the labels moved onto it; with `name`,
 * the form that creates a prompt. `save` rejects with the API's error, shown next to its field.
 */
export function PromptForm({
  withName,
  initial,
  submitLabel,
  save,
  onCancel,
}: {
  withName: boolean;
  initial?: { prompt: string; config: Record<string, unknown> | null };
  submitLabel: string;
  save: (input: PromptInput & { name: string }) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState('');
  const [prompt, setPrompt] = useState(initial?.prompt ?? '');
  const [config, setConfig] = useState(initial?.config ? JSON.stringify(initial.config, null, 2) : '');
  const [labels, setLabels] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const errors = useFormErrors((attr) => (attr.startsWith('labels') ? 'labels' : ['name', 'prompt', 'config'].includes(attr) ? attr : undefined));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    errors.clear();
    const parsed = parseJson(config);
    if (parsed.error) return errors.set('config', parsed.error);
    if (parsed.value !== undefined && (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)))
      return errors.set('config', 'Enter a JSON object, such as {"model": "gpt-4o-mini"}.');
    if (withName && !name.trim()) return errors.set('name', 'Enter a name.');
    if (!prompt.trim()) return errors.set('prompt', 'Enter the prompt.');
    setSaving(true);
    try {
      await save({ name: name.trim(), prompt, config: (parsed.value as Record<string, unknown> | undefined) ?? null, labels });
    } catch (error) {
      errors.fromError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="sm">
        {errors.general && (
          <Alert color="red" variant="light" role="alert">
            {errors.general}
          </Alert>
        )}
        {withName && (
          <TextInput
            label="Name"
            description="What your code asks for: letters, digits, _ . -"
            placeholder="support-answer"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.field('name')}
            maxLength={128}
            required
            data-autofocus
          />
        )}
        <Textarea
          label="Prompt"
          description="{{variable}} is filled in by Prompts.compile()"
          value={prompt}
          onChange={(e) => setPrompt(e.currentTarget.value)}
          error={errors.field('prompt')}
          autosize
          minRows={6}
          maxRows={20}
          required
          classNames={{ input: 'mono' }}
        />
        <Textarea
          label="Model settings"
          description="Optional JSON kept with the version, such as the model and temperature"
          placeholder='{"model": "gpt-4o-mini", "temperature": 0.2}'
          value={config}
          onChange={(e) => setConfig(e.currentTarget.value)}
          error={errors.field('config')}
          autosize
          minRows={2}
          classNames={{ input: 'mono' }}
        />
        <TagsInput
          label="Labels"
          description="Labels moved onto this version (such as production): code that asks for a label gets it from now on"
          placeholder="production"
          value={labels}
          onChange={setLabels}
          error={errors.field('labels')}
          maxTags={20}
        />
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
